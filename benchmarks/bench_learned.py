"""The learned player's time a move: `Bot.act` whole (median and 95th percentile), and its
parts: `seat_view` (the round as the seat sees it, which every bot that cannot see is given),
the observation (`solver.encode`) and the network's scores. Positions: every move of arena
rounds (the stream `klaverjas arena --seed S` deals), played out by the bot itself.

    python benchmarks/bench_learned.py                      # the shipped network, 50 rounds
    python benchmarks/bench_learned.py --network mine.npz --rounds 100
"""
import argparse
import statistics
import time

from solver import encode
from solver.bots import LearnedBot, seat_view
from solver.model.rounds import RoundStream
from solver.network import default_network, load_network


def timed(call, *args):
    start = time.perf_counter()
    call(*args)
    return (time.perf_counter() - start) * 1000


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default=None, help="a network file (default: the shipped one)")
    parser.add_argument("--rounds", type=int, default=50, help="rounds played out (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="the stream of rounds (default 0)")
    args = parser.parse_args(argv)
    network = load_network(args.network) if args.network else default_network()
    bot = LearnedBot(network)
    times = {"act": [], "seat_view": [], "observation": [], "scores": []}
    for i in range(args.rounds):
        game = RoundStream(args.seed).round(i).game()
        while not game.is_over:
            seat = game.to_move
            times["seat_view"].append(timed(seat_view, game, seat))
            x = encode.observation(game, seat)
            times["observation"].append(timed(encode.observation, game, seat))
            times["scores"].append(timed(network.scores, x))
            start = time.perf_counter()
            card = bot.act(game, seat)
            times["act"].append((time.perf_counter() - start) * 1000)
            game.play(card)
    print(f"{len(times['act'])} moves of {args.rounds} rounds, network {network!r}")
    print("| part | median ms | p95 ms |")
    print("|---|---|---|")
    for part, values in times.items():
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        name = "Bot.act (the whole move)" if part == "act" else part
        print(f"| {name} | {statistics.median(values):.3f} | {p95:.3f} |")


if __name__ == "__main__":
    main()
