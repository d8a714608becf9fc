"""pytest-benchmark suite: `python -m pytest benchmarks --benchmark-enable`.

Each benchmark solves the same seeded full deals at trick 1 with a cold table of the default
size, so medians compare across engine versions. Node counts go into `extra_info`.
"""
import pytest

from bench_solve import positions
from solver import Rules, Solver

DEALS = list(positions(8))


@pytest.mark.parametrize("objective", ["points", "make", "score"])
def test_full_deal(benchmark, objective):
    def run():
        nodes = 0
        for deal, trump, leader, playing in DEALS:
            solver = Solver(Rules())
            solver.value(solver.game(deal, trump, leader, playing), objective)
            nodes += solver.engine.nodes
        return nodes
    benchmark.extra_info["nodes"] = benchmark.pedantic(run, rounds=3, iterations=1)


def test_solve_moves_at_trick_one(benchmark):
    def run():
        for deal, trump, leader, playing in DEALS:
            solver = Solver(Rules())
            solver.move_values(solver.game(deal, trump, leader, playing), "points")
    benchmark.pedantic(run, rounds=3, iterations=1)
