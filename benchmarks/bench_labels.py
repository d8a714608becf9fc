"""Labels throughput: rows per second for each --positions mode with 1 and 2 workers, and the
share of a 1-worker run spent outside solver calls (the pipeline's own overhead: playing the
round, building rows, encoding and writing shards).

    python benchmarks/bench_labels.py [--deals 40] [--worlds 16]

With --worlds N, a last row: trick starts with `sd_values` over N worlds.
"""
import argparse
import tempfile

from solver.labels import POSITIONS, LabelConfig, generate


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--play", default="optimal")
    parser.add_argument("--worlds", type=int, default=16,
                        help="worlds of the last row, trick-starts with sd_values (0: none)")
    args = parser.parse_args(argv)
    print(f"{args.deals} deals per mode, default rules, --play {args.play}, npz")
    print(f"{'positions':<26} {'rows':>6} {'rows/s 1 worker':>16} {'rows/s 2 workers':>17} "
          f"{'outside search':>15}")
    modes = [(positions, 0) for positions in POSITIONS]
    if args.worlds:
        modes.append(("trick-starts", args.worlds))
    for positions, worlds in modes:
        config = LabelConfig(deals=args.deals, positions=positions, play=args.play,
                             format="npz", deals_per_shard=max(1, args.deals // 8),
                             worlds=worlds)
        summaries = []
        for workers in (1, 2):
            with tempfile.TemporaryDirectory() as out:
                summaries.append(generate(config, out, workers=workers))
        one, two = summaries
        outside = 1 - one.search_seconds / one.wall_seconds
        label = positions + (f" --worlds {worlds}" if worlds else "")
        print(f"{label:<26} {one.rows:6d} {one.rows / one.wall_seconds:16.1f} "
              f"{two.rows / two.wall_seconds:17.1f} {outside:14.1%}", flush=True)


if __name__ == "__main__":
    main()
