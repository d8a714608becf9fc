"""The distance to the limit: our nodes against a perfect move order's, on fixed positions.

    python benchmarks/bench_limit.py [--positions 20] [--full] [--types trick1,12]
                                     [--objectives points,moves]

For each position the same search runs twice, each on a fresh Solver with the default 2 MB
table: once as it is, and once with every node's moves in the order of an oracle that knows
their exact values (best first for the player to move, ties in our own order). The second
is the "minimal tree" of this benchmark: our own search (the same table, bounds, enhanced
cutoff, equivalent cards, null windows and root windows) with a perfect move order, so that
nodes / minimal nodes measures the move order alone. It is not the smallest proof there is:
a best move is not always the cheapest one to prove a cutoff with, and a different table
policy would prove the value with other nodes. The lookahead that orders nodes near the root
is not run under the oracle (its nodes would be order, not proof); our count includes it. The
oracle's own searches (on a separate Engine and table) are not counted.

The oracle is compiled in only with KLAVERJAS_ENGINE_ORACLE=1, so this script builds a copy of
the package with it under build/oracle-engine (once per change of the engine's sources,
about a minute) and runs the measurement there; a normal build's search never tests for it.

Positions: the node signature's rounds (default rules, trump, leader and playing team drawn
per round); `trick1` nothing played, `12` twelve cards played at random (seeded per round).
The values of both searches are compared: any difference ends the run with status 1.
Both position types at 60 positions: --full. `--plies 4,8` adds lines (`points<4`, ...) with
the oracle's order in only the first 4 (8) cards below the root and ours below: where the
headroom is.
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "oracle-engine"
TYPES = {"trick1": 0, "12": 12}
ORACLE_TABLE_MB = 64
ALL_PLIES = 32


def build_oracle_engine():
    """A copy of the package under BUILD, its engine built with the oracle (when stale)."""
    sys.path.insert(0, str(ROOT / "solver" / "engine"))
    from _source_hash import source_hash     # the engine's own fingerprint, no package import
    wanted = source_hash(ROOT / "solver" / "engine")
    stamp = BUILD / "built-from"
    shutil.copytree(ROOT / "solver", BUILD / "solver", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("*.so", "__pycache__", "_engine.c"))
    shutil.copy2(ROOT / "setup.py", BUILD / "setup.py")
    if stamp.exists() and stamp.read_text() == wanted:
        return
    print("building the engine with the oracle in build/oracle-engine ...", flush=True)
    env = dict(os.environ, KLAVERJAS_ENGINE_ORACLE="1")
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace", "--force"],
                   cwd=BUILD, env=env, check=True, stdout=subprocess.DEVNULL)
    stamp.write_text(wanted)


def position_games(kind, count):
    """The Games of type `kind`: the signature's rounds, with cards played at random."""
    from solver import Game, Rules
    from solver.engine.signature import positions
    for i, (deal, trump, leader, playing) in enumerate(positions(count)):
        game = Game(deal, trump, leader, playing, Rules())
        rng = random.Random(f"limit-{kind}-{i}")
        for _ in range(TYPES[kind]):
            game.play(rng.choice(sorted(game.legal_cards(), key=str)))
        yield game


def searched(objective, oracle, plies=ALL_PLIES):
    """(value, nodes) of one search of `objective` on a fresh Solver, with the oracle's move
    order if `oracle` (in the first `plies` cards below the root)."""
    from solver import Solver
    solver = Solver()
    if oracle:
        solver.engine.attach_oracle(Solver(table_mb=ORACLE_TABLE_MB).engine, plies)

    def run(game):
        before = solver.engine.nodes
        if objective == "moves":
            value = sorted((str(c), v) for c, v in solver.move_values(game).items())
        else:
            value = solver.value(game, objective)
        return value, solver.engine.nodes - before
    return run


def summary(ours, perfect):
    """Per position ours/perfect: median, mean, extremes; and over the heaviest tenth of the
    positions (by our nodes), the ratio of their sums."""
    ratios = sorted(o / max(p, 1) for o, p in zip(ours, perfect))
    heaviest = sorted(zip(ours, perfect), reverse=True)[:max(1, len(ours) // 10)]
    tenth = sum(o for o, _ in heaviest) / max(sum(p for _, p in heaviest), 1)
    return (f"median {statistics.median(ratios):5.2f}  mean {statistics.mean(ratios):5.2f}  "
            f"min {ratios[0]:5.2f}  max {ratios[-1]:5.2f}  heaviest tenth {tenth:5.2f}")


def measure(args):
    import solver
    from solver.engine._compiled import engine
    if not engine.ORACLE_BUILD or not Path(solver.__file__).is_relative_to(BUILD):
        sys.exit(f"{solver.__file__}: not the package built with the oracle")
    failed = False
    print(f"{args.positions} positions a type, default rules, 2 MB table, fresh per search")
    print(f"{'type':<7} {'objective':<9} {'ours median':>10} {'perfect median':>14} "
          f"{'ratio of sums':>13}  nodes / perfect nodes per position")
    for kind in args.types.split(","):
        games = list(position_games(kind, args.positions))
        for objective in args.objectives.split(","):
            for plies in [ALL_PLIES] + [int(p) for p in args.plies.split(",") if p]:
                label = objective if plies == ALL_PLIES else f"{objective}<{plies}"
                ours_nodes, perfect_nodes = [], []
                start = time.perf_counter()
                for i, game in enumerate(games):
                    ours, nodes = searched(objective, False)(game)
                    perfect, minimal = searched(objective, True, plies)(game)
                    if ours != perfect:
                        print(f"{kind} {label} position {i}: value {ours} with our order, "
                              f"{perfect} with the oracle's")
                        failed = True
                    ours_nodes.append(nodes)
                    perfect_nodes.append(minimal)
                print(f"{kind:<7} {label:<9} {statistics.median(ours_nodes):>10.0f} "
                      f"{statistics.median(perfect_nodes):>14.0f} "
                      f"{sum(ours_nodes) / max(sum(perfect_nodes), 1):>13.2f}  "
                      f"{summary(ours_nodes, perfect_nodes)}"
                      f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    print("positions with different values:", "some" if failed else 0)
    return 1 if failed else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="positions a type (default 20)")
    parser.add_argument("--full", action="store_true", help="60 positions a type")
    parser.add_argument("--types", default=",".join(TYPES), help="trick1, 12")
    parser.add_argument("--objectives", default="points,moves", help="points, moves, make, score")
    parser.add_argument("--plies", default="",
                        help="also with the oracle's order in only the first N cards below the "
                             "root, for each N of this comma-separated list (e.g. 4,8)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.full:
        args.positions = 60
    if args.worker:
        return measure(args)
    build_oracle_engine()
    env = dict(os.environ, PYTHONPATH=str(BUILD))
    command = [sys.executable, __file__, "--worker", "--positions", str(args.positions),
               "--types", args.types, "--objectives", args.objectives, "--plies", args.plies]
    return subprocess.run(command, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
