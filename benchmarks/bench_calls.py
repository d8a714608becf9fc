"""What a public call costs beside its search: microseconds a call on a warm `Solver`, in a loop
over positions of different deals, late in the round where the search itself is small.

    python benchmarks/bench_calls.py [--positions 400] [--types 12,22,end]

The positions are vs_colver.py's (random legal play from its seeded deals, Belote-equivalent
rules); each figure is the best of three passes over them. The calls with a deal
(`solve_moves`, `solve`) replay the cards played themselves; the calls on a `Game` get one
built beforehand (`game()` is what building it costs).
"""
import argparse
import time

from bench_solve import positions
from vs_colver import RULES, position_of
from solver import Solver

CALLS = {
    "solve_moves": lambda solver, p, game: solver.solve_moves(*p[:4], played=p[4]),
    "solve": lambda solver, p, game: solver.solve(*p[:4], played=p[4]),
    "game()": lambda solver, p, game: solver.game(*p[:4], played=p[4]),
    "value(game)": lambda solver, p, game: solver.value(game),
    "move_values(game)": lambda solver, p, game: solver.move_values(game),
    "best_card(game)": lambda solver, p, game: solver.best_card(game),
}


def best_of_three(call, solver, items):
    """The least seconds a call over three passes (after one to warm up)."""
    for position, game in items:
        call(solver, position, game)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for position, game in items:
            call(solver, position, game)
        best = min(best, (time.perf_counter() - start) / len(items))
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--types", default="12,22,end", help="of vs_colver.py: 12, 22, end")
    args = parser.parse_args(argv)
    solver = Solver(RULES)
    kinds = args.types.split(",")
    print(f"{args.positions} positions a type, one warm Solver, microseconds a call "
          f"(best of three passes)")
    print(f"{'call':<18}" + "".join(f"{kind:>10}" for kind in kinds))
    items = {}
    for kind in kinds:
        found = []
        for i, (deal, trump, leader, playing) in enumerate(positions(args.positions)):
            deal, played = position_of(kind, i, deal, trump, leader, playing)
            position = (deal, trump, leader, playing, played)
            found.append((position, solver.game(*position[:4], played=played)))
        items[kind] = found
    for name, call in CALLS.items():
        row = [best_of_three(call, solver, items[kind]) * 1e6 for kind in kinds]
        print(f"{name:<18}" + "".join(f"{us:>10.1f}" for us in row), flush=True)


if __name__ == "__main__":
    main()
