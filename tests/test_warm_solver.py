"""The package's functions search on each thread's warm Solver: same values, one table a thread."""
import threading

import pytest

from solver import Deal, Rules, Solver, solve, solve_moves
from solver.errors import NotationError
from solver.engine.search import warm_solver


def test_a_thread_keeps_one_solver_between_calls():
    assert warm_solver() is warm_solver("rotterdam") is warm_solver(Rules(nat="82"))


def test_the_warm_solver_takes_the_rules_of_the_call():
    assert warm_solver("rotterdam").rules == Rules.rotterdam()
    assert warm_solver().rules == Rules()


def test_another_table_size_replaces_the_threads_solver():
    first = warm_solver(table_mb=2)
    second = warm_solver(table_mb=3)
    assert second is not first and second.table_mb == 3
    assert warm_solver(table_mb=3) is second


def test_each_thread_has_its_own_solver():
    mine = warm_solver()
    seen = []
    thread = threading.Thread(target=lambda: seen.append(warm_solver()))
    thread.start()
    thread.join()
    assert seen and seen[0] is not mine


def test_top_level_values_equal_a_fresh_solvers_whatever_came_before():
    rules = [Rules(), Rules.rotterdam(), Rules(roem="hand", nat="82")]
    for seed in range(6):
        deal = Deal.random(seed)
        for rule in rules:
            line = Solver(rule).solve(deal, "S", "E", "EW").line
            for played in (line[:0], line[:13], line[:25]):
                fresh = Solver(rule)
                assert solve_moves(deal, "S", "E", "EW", rule, played) == fresh.solve_moves(
                    deal, "S", "E", "EW", rule, played)
                result = solve(deal, "S", "E", "EW", rule, played)
                expected = Solver(rule).solve(deal, "S", "E", "EW", rule, played)
                assert (result.value, result.line) == (expected.value, expected.line)


def test_what_a_call_kept_of_its_arguments_never_outlives_them():
    # A loop of calls keeps what its arguments come to, by identity: never for rules that may
    # change (a dict), nor for an argument equal to a good one but not good (True == 1).
    deal, solver = Deal.random(7), Solver()
    options = {"roem": "none"}
    without_roem = solver.solve_moves(deal, 1, 0, 0, options)
    options["roem"] = "table"
    assert solver.solve_moves(deal, 1, 0, 0, options) == solver.solve_moves(deal, 1, 0, 0)
    assert without_roem != solver.solve_moves(deal, 1, 0, 0)
    with pytest.raises(NotationError, match="unknown suit True"):
        solver.solve_moves(deal, True, 0, 0)
    solver.rules = Rules(roem="none")           # as warm_solver(rules) does
    assert solver.solve_moves(deal, 1, 0, 0) == without_roem
