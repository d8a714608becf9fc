"""Instructions the engine executes on seeded deals, counted by valgrind (exact, unlike time).

    python benchmarks/count_instructions.py [--deals 10] [--objective points]

Times on a shared machine vary by 5 to 25% from run to run; the number of instructions does
not, so two versions of the engine can be compared on one run each. It does not see memory
stalls or mispredicted branches: a change that saves instructions is not always faster, so
confirm a gain with interleaved timings (bench_solve.py). Needs valgrind (Debian: `apt install
valgrind`); under a second per deal for `points`.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from bench_solve import positions
from solver import Rules, Solver

OBJECTIVES = ("points", "score", "make", "moves", "solve")


def work(deals, objective):
    """Solve the first `deals` seeded deals in one warm Solver; the engine's node count."""
    solver = Solver(Rules())
    for deal, trump, leader, playing in positions(deals):
        game = solver.game(deal, trump, leader, playing)
        if objective == "moves":
            solver.move_values(game, "points")
        elif objective == "solve":
            solver.solve(deal, trump, leader, playing)
        else:
            solver.value(game, objective)
    return solver.engine.nodes


def engine_instructions(path):
    """Instructions executed in the engine's code, from a cachegrind output file."""
    events, total, in_engine = [], 0, False
    with open(path) as lines:
        for line in lines:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fl="):
                in_engine = "_engine" in line
            elif in_engine and line[:1].isdigit():
                total += int(line.split()[1 + events.index("Ir")])
    return total


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--objective", choices=OBJECTIVES, default="points")
    parser.add_argument("--work", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.work:                  # the run under valgrind
        print(work(args.deals, args.objective))
        return 0
    if shutil.which("valgrind") is None:
        sys.exit("count_instructions needs valgrind (Debian: apt install valgrind)")
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "cachegrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
             sys.executable, os.path.abspath(__file__), "--work", "--deals", str(args.deals),
             "--objective", args.objective],
            capture_output=True, text=True, check=True)
        nodes = int(run.stdout.split()[-1])
        instructions = engine_instructions(out)
    print(f"{args.deals} deals, {args.objective} at trick 1, one warm Solver: "
          f"{instructions / 1e6:.1f}M engine instructions, {nodes} nodes, "
          f"{instructions / max(nodes, 1):.0f} per node")
    return 0


if __name__ == "__main__":
    sys.exit(main())
