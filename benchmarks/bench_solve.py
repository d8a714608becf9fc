"""Time and nodes per solve over seeded full deals, for every objective and for solve_moves.

    python benchmarks/bench_solve.py [--deals 200] [--table-mb 2] [--objectives points,make]
    python benchmarks/bench_solve.py --contract ledig [--ledig-trump chosen]

Deal i is Deal.random(i) with trump, leader and playing team drawn from seed i, so runs on
different versions of the engine search identical positions and can be compared node for node.
With `--contract ledig` the rounds are ledig rounds: leader and bidder (and, under
`--ledig-trump chosen`, the trump) drawn from seed i.
"""
import argparse
import statistics
import sys
import time

from solver import Deal, Rules, Seat, Solver, Suit, Team, solve_table
from solver.model.streams import SplitMix64
from solver.engine.search import DEFAULT_TABLE_MB
from solver.engine.signature import positions  # the node signature's rounds: node for node

# "solve" is solve() (the points value and its line); "table" is solve_table on all cores.
OBJECTIVES = ("points", "make", "score", "moves", "solve", "table")


def ledig_positions(count, chosen):
    """(deal, trump or None, leader, bidder) of ledig round i, drawn from seed i."""
    for i in range(count):
        rng = SplitMix64(1_000_003 * i + 29)
        trump = Suit(rng.below(4))
        yield Deal.random(i), trump if chosen else None, Seat(rng.below(4)), Seat(rng.below(4))


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def measure(solver, objective, deal, trump, leader, playing):
    game = solver.game(deal, trump, leader, playing)
    start_nodes = solver.engine.nodes
    start = time.perf_counter()
    if objective == "moves":
        solver.move_values(game, "points")
    elif objective == "solve":
        solver.solve(deal, trump, leader, playing)
    elif objective == "table":
        solve_table(deal, solver.rules, workers=None)
    else:
        solver.value(game, objective)
    return time.perf_counter() - start, solver.engine.nodes - start_nodes


def measure_ledig(solver, objective, deal, trump, leader, bidder):
    """measure() for a ledig round with this bidder (the solver's rules say ledig)."""
    game = solver.game(deal, trump, leader, bidder=bidder)
    start_nodes = solver.engine.nodes
    start = time.perf_counter()
    if objective == "moves":
        solver.move_values(game, "points")
    elif objective == "solve":
        solver.solve(deal, trump, leader, bidder=bidder)
    else:
        solver.value(game, objective)
    return time.perf_counter() - start, solver.engine.nodes - start_nodes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--table-mb", type=int, default=DEFAULT_TABLE_MB)
    parser.add_argument("--objectives", default=None)
    parser.add_argument("--contract", choices=("trump", "ledig"), default="trump")
    parser.add_argument("--ledig-trump", choices=("none", "chosen"), default="none")
    args = parser.parse_args(argv)
    ledig = args.contract == "ledig"
    objectives = args.objectives or ",".join(o for o in OBJECTIVES if not (ledig and o == "table"))
    if ledig and "table" in objectives.split(","):
        parser.error("--contract ledig measures points, make, score, moves and solve")
    if ledig:
        rules = Rules(contract="ledig", ledig_trump=args.ledig_trump)
        deals = list(ledig_positions(args.deals, args.ledig_trump == "chosen"))
        measured = measure_ledig
        print(f"{args.deals} deals, ledig (ledig_trump={args.ledig_trump}), table "
              f"{args.table_mb} MB, one thread")
    else:
        rules = Rules()
        deals = list(positions(args.deals))
        measured = measure
        print(f"{args.deals} deals, default rules, table {args.table_mb} MB, one thread "
              f"(table: solve_table on all cores, nodes not counted)")
    print(f"{'objective':<9} {'median ms':>10} {'p90 ms':>9} {'p99 ms':>9} {'max ms':>9}"
          f" {'median nodes':>13} {'p90 nodes':>11} {'max nodes':>11}")
    for objective in objectives.split(","):
        times, nodes = [], []
        for i, (deal, trump, leader, seat_or_team) in enumerate(deals, start=1):
            solver = Solver(rules, table_mb=args.table_mb)   # a cold table for every deal
            t, n = measured(solver, objective, deal, trump, leader, seat_or_team)
            times.append(t * 1000)
            nodes.append(n)
            if i % 25 == 0 or i == len(deals):
                print(f"  {objective}: {i}/{len(deals)} deals, median so far "
                      f"{statistics.median(times):.1f} ms", file=sys.stderr, flush=True)
        counts = ("-", "-", "-") if objective == "table" else (
            int(statistics.median(nodes)), percentile(nodes, .9), max(nodes))
        print(f"{objective:<9} {statistics.median(times):10.2f} {percentile(times, .9):9.2f}"
              f" {percentile(times, .99):9.2f} {max(times):9.2f} {counts[0]:>13}"
              f" {counts[1]:>11} {counts[2]:>11}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
