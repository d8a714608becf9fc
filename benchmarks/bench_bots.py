"""The bots measured: PIMCBot against RuleBot over duplicate deals, PIMCBot's time per move at
trick 1 for 16, 32 and 64 worlds, each bot's double-dummy error per card, and a trained
PolicyBot against RandomBot and RuleBot. Prints Markdown tables (docs/benchmarks.md).

    python benchmarks/bench_bots.py                      # the full run: 400 deals
    python benchmarks/bench_bots.py --deals 100 --policy policy.npz

--policy is a model written by `python examples/train_policy.py --out policy.npz`; without it
the PolicyBot rows are left out. Every arena uses `--seed` (default 1), so the deals are the
same for every bot; the times depend on the machine and its load.
"""
import argparse
import json
import statistics
import time

from solver.arena import play_arena
from solver.bots import PIMCBot
from solver.model.rounds import RoundStream


def arena_row(label, result):
    low, high = result.ci95
    a, b = result.bots["a"], result.bots["b"]
    return (f"| {label} | {result.deals} | {result.mean_score_diff:+.1f} | [{low:+.1f}, {high:+.1f}] "
            f"| {result.mean_points_diff:+.1f} | {a.dd_loss_per_card:.2f} | {b.dd_loss_per_card:.2f} "
            f"| {a.ms_per_move_median:.1f} / {a.ms_per_move_p95:.1f} | {result.wall_seconds:.0f} s |")


def trick_one_times(worlds, moves, workers, seed, margin=None):
    """Seconds of PIMCBot(worlds, margin=margin).act for the first card of `moves` deals of
    the stream."""
    times = []
    bot = PIMCBot(worlds=worlds, workers=workers, margin=margin)
    for i in range(moves):
        game = RoundStream(seed).round(i).game()
        leader = game.leader
        bot.reset(i)
        start = time.perf_counter()
        bot.act(game, leader)
        times.append(time.perf_counter() - start)
    return times


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400, help="duplicate deals (default 400)")
    parser.add_argument("--small-deals", type=int, default=None,
                        help="deals for the cheap arenas (default: --deals)")
    parser.add_argument("--pimc", type=int, default=32, help="PIMCBot's worlds (default 32)")
    parser.add_argument("--moves", type=int, default=30,
                        help="trick-1 moves timed for each world count (default 30)")
    parser.add_argument("--margin", type=float, default=5.0,
                        help="the times also with PIMCBot(margin=M), one thread (default 5)")
    parser.add_argument("--policy", default=None, help="a PolicyBot model file (default: none)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip", default="", help="comma-separated parts to leave out: "
                        "pimc, times, baselines, policy")
    parser.add_argument("--json", default=None, help="also write every arena's to_dict here")
    args = parser.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    small = args.small_deals or args.deals
    results = {}

    print("| team a against team b | deals | score a - b per deal | 95% interval "
          "| points a - b | DD loss/card a | DD loss/card b | ms/move a (median / p95) | wall |")
    print("|---|---|---|---|---|---|---|---|---|")
    matches = []
    if "pimc" not in skip:
        matches.append((f"pimc:{args.pimc}", "rule", args.deals))
    if "baselines" not in skip:
        matches += [("rule", "random", small), ("dd", "rule", small)]
    if args.policy and "policy" not in skip:
        matches += [(f"policy:{args.policy}", "random", small), (f"policy:{args.policy}", "rule", small)]
    for a, b, deals in matches:
        result = play_arena(a, b, deals=deals, seed=args.seed, workers=args.workers,
                            progress=True)
        results[f"{a} vs {b}"] = result.to_dict()
        print(arena_row(f"{a} against {b}", result), flush=True)

    if "times" not in skip:
        print()
        print("| PIMCBot worlds | margin | threads | moves at trick 1 | median ms | p95 ms |")
        print("|---|---|---|---|---|---|")
        for worlds in (16, 32, 64):
            for workers, margin in ((1, None), (2, None), (1, args.margin)):
                times = trick_one_times(worlds, args.moves, workers, args.seed, margin)
                print(f"| {worlds} | {margin or '-'} | {workers} | {len(times)} | "
                      f"{statistics.median(times) * 1000:.0f} | "
                      f"{percentile(times, 0.95) * 1000:.0f} |", flush=True)
                name = f"pimc:{worlds}" + (f"~{margin:g}" if margin else "")
                results[f"times {name} threads {workers}"] = times
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f)


if __name__ == "__main__":
    main()
