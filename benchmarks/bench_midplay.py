"""Mid-play positions: random legal play to a random point of the round, then `points` with
one warm Solver. Prints the median, p99 and the worst positions.

    python benchmarks/bench_midplay.py [--positions 10000]
"""
import argparse
import random
import statistics
import sys
import time

from solver import Deal, Game, Rules, Solver


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    args = parser.parse_args(argv)
    solver, rng, times = Solver(), random.Random(5), []
    for i in range(args.positions):
        game = Game(Deal.random(10_000 + i), rng.choice("CDHS"), rng.choice("NESW"),
                    rng.choice(["NS", "EW"]), Rules())
        for _ in range(rng.randrange(0, 28)):
            game.play(rng.choice(game.legal_cards()))
        start = time.perf_counter()
        solver.value(game)
        times.append((time.perf_counter() - start, i, len(game.played)))
        if (i + 1) % 1000 == 0:
            print(f"  {i + 1}/{args.positions} positions", file=sys.stderr, flush=True)
    ms = sorted(t * 1000 for t, _, _ in times)
    print(f"{args.positions} positions: median {statistics.median(ms):.2f} ms, "
          f"p99 {ms[int(0.99 * len(ms))]:.1f} ms, worst {ms[-1]:.0f} ms")
    for seconds, i, played in sorted(times)[-3:]:
        print(f"  position {i} ({played} cards played): {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
