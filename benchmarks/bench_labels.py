"""Labels throughput: rows per second for each --positions mode with 1 and 2 workers, and the
share of the run spent outside the search (the pipeline's own overhead).

    python benchmarks/bench_labels.py [--deals 40]
"""
import argparse
import tempfile
import time

from solver import Solver
from solver.labels import POSITIONS, LabelConfig, generate, shard_columns


class TimedEngine:
    """The engine with a stopwatch on every call that searches, for the time inside the
    search."""

    SEARCHING = ("search", "child_values", "child_bounds", "line", "solve")

    def __init__(self, engine):
        self.engine, self.seconds = engine, 0.0

    def __getattr__(self, name):
        attribute = getattr(self.engine, name)
        if name not in self.SEARCHING:
            return attribute

        def timed(*args):
            start = time.perf_counter()
            try:
                return attribute(*args)
            finally:
                self.seconds += time.perf_counter() - start
        return timed


def overhead(config):
    solver = Solver(config.rules)
    solver.engine = TimedEngine(solver.engine)
    start = time.perf_counter()
    rows = sum(len(shard_columns(config, shard, solver)["deal_id"]) for shard in range(config.shards))
    total = time.perf_counter() - start
    return rows, total, 1 - solver.engine.seconds / total


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--play", default="optimal")
    args = parser.parse_args(argv)
    print(f"{args.deals} deals per mode, default rules, --play {args.play}, npz")
    print(f"{'positions':<13} {'rows':>6} {'rows/s 1 worker':>16} {'rows/s 2 workers':>17} "
          f"{'outside search':>15}")
    for positions in POSITIONS:
        config = LabelConfig(deals=args.deals, positions=positions, play=args.play,
                             format="npz", deals_per_shard=max(1, args.deals // 8))
        rates = []
        for workers in (1, 2):
            with tempfile.TemporaryDirectory() as out:
                summary = generate(config, out, workers=workers)
            rates.append(summary.rows / summary.seconds)
        rows, _, outside = overhead(config)
        print(f"{positions:<13} {rows:6d} {rates[0]:16.1f} {rates[1]:17.1f} {outside:14.1%}",
              flush=True)


if __name__ == "__main__":
    main()
