"""The analysis board's speed, over HTTP on loopback, against `klaverjas serve` run as its own
process (so that its memory and CPU are its own):

- click to values: the time from a click (POST /api/position with one more card) to the new
  board with its values, at trick 1 (the first card), after 12 and after 22 cards; beside it
  the search alone (Solver.solve_moves) for the same position, so the HTTP cost shows;
- the single-dummy table of 64 worlds at trick 1 (POST /api/view, to its last batch);
- a load run: `--players` simulated players clicking through rounds at once for `--seconds`
  (or `--requests` requests), some asking for the single-dummy table and leaving it after the
  first batch; then errors, latency, the server's memory against its start, and how soon its
  CPU is idle after the players leave.

    python benchmarks/bench_web.py [--deals 20] [--players 20] [--seconds 60] [--requests 10000]
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from solver import Deal, Game, Solver

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def start_server():
    """`klaverjas serve --port 0` in its own process: (the process, its address)."""
    process = subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, text=True, cwd=ROOT)
    url = re.search(r"http://\S+/", process.stdout.readline()).group(0).rstrip("/")
    return process, url


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def body(deal, played, **more):
    return {"deal": deal.to_pbn(), "trump": "H", "leader": "E", "playing": "NS",
            "rules": "amsterdam", "played": [str(c) for c in played], **more}


def best_line(deal):
    solver, game = Solver(), Game(deal, "H", "E", "NS")
    line = []
    while not game.is_over:
        card = solver.best_card(game)
        line.append(card)
        game.play(card)
    return line


def click_latency(http, url, deals):
    print("click to values (POST /api/position, one card more; search alone beside it)")
    solver = Solver()
    for before in (0, 12, 22):
        walls, searches = [], []
        for deal in deals:
            line = best_line(deal)
            http.post(url + "/api/position", json=body(deal, line[:before])).raise_for_status()
            start = time.perf_counter()
            http.post(url + "/api/position", json=body(deal, line[:before + 1])).raise_for_status()
            walls.append(time.perf_counter() - start)
            # The search alone, on a solver warmed by the position before, as the server's is.
            solver.solve_moves(deal, "H", "E", "NS", played=line[:before])
            start = time.perf_counter()
            solver.solve_moves(deal, "H", "E", "NS", played=line[:before + 1])
            searches.append(time.perf_counter() - start)
        print(f"  after {before + 1:2d} card(s): median {ms(statistics.median(walls))}, p95 "
              f"{ms(percentile(walls, .95))}; the search alone median "
              f"{ms(statistics.median(searches))}", flush=True)


def single_dummy(http, url, deals):
    walls = []
    for deal in deals[:5]:
        start = time.perf_counter()
        with http.stream("POST", url + "/api/view", json=body(deal, [], worlds=64, batch=8)) as answer:
            last = [json.loads(line) for line in answer.iter_lines() if line][-1]
        assert last["worlds"] == 64, last
        walls.append(time.perf_counter() - start)
    print(f"single dummy, 64 worlds at trick 1 (8 batches of 8): median "
          f"{ms(statistics.median(walls))}, max {ms(max(walls))}", flush=True)


def load_run(url, pid, players, seconds, most_requests):
    latencies, errors, count = [], [], [0]
    lock = threading.Lock()
    stop = threading.Event()
    memory_start = rss_mb(pid)

    def player(number):
        rng = random.Random(number)
        with httpx.Client(timeout=60) as http:
            while not stop.is_set():
                deal = Deal.random(rng.randrange(2 ** 32))
                game = Game(deal, "H", "E", "NS")
                while not game.is_over and not stop.is_set():
                    start = time.perf_counter()
                    try:
                        answer = http.post(url + "/api/position", json=body(deal, game.played))
                        answer.raise_for_status()
                        board = answer.json()
                    except Exception as err:      # counted, not raised: the run goes on
                        with lock:
                            errors.append(repr(err))
                        break
                    with lock:
                        latencies.append(time.perf_counter() - start)
                        count[0] += 1
                        if count[0] >= most_requests:
                            stop.set()
                    if rng.random() < 0.05:       # asks what the player could know, then moves on
                        with http.stream("POST", url + "/api/view",
                                         json=body(deal, game.played, worlds=64)) as view:
                            next(view.iter_lines())
                    game.play(rng.choice(sorted(board["values"])))

    threads = [threading.Thread(target=player, args=(n,)) for n in range(players)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    left = time.perf_counter()
    took = left - began
    memory_end = rss_mb(pid)
    # CPU idle: the first 100 ms window, from when the players left, in which the server
    # used under 5% of a core.
    idle_after = None
    previous = cpu_seconds(pid)
    while time.perf_counter() - left < 10:
        time.sleep(0.1)
        now = cpu_seconds(pid)
        if now - previous < 0.005:
            idle_after = time.perf_counter() - left
            break
        previous = now
    print(f"load: {players} players, {len(latencies)} requests in {took:.1f} s "
          f"({len(latencies) / took:.0f}/s), {len(errors)} errors; latency median "
          f"{ms(statistics.median(latencies))}, p95 {ms(percentile(latencies, .95))}; memory "
          f"{memory_start:.0f} -> {memory_end:.0f} MB ({memory_end - memory_start:+.0f}); CPU idle "
          f"{'after ' + ms(idle_after) if idle_after is not None else 'not within 10 s'} "
          f"once they left", flush=True)
    for error in errors[:3]:
        print("  error:", error)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--only", default="click,view,load", help="comma-separated: click, view, load")
    args = parser.parse_args(argv)
    only = args.only.split(",")
    process, url = start_server()
    try:
        deals = [Deal.random(seed) for seed in range(args.deals)]
        with httpx.Client(timeout=120) as http:
            if "click" in only:
                click_latency(http, url, deals)
            if "view" in only:
                single_dummy(http, url, deals)
        if "load" in only:
            load_run(url, process.pid, args.players, args.seconds, args.requests)
    finally:
        process.terminate()
        process.wait(30)


if __name__ == "__main__":
    main()
