"""The objective objects (solver.engine.objectives): one per objective and contract, owning
its metric, make test, kept line, check and range; and Solver, the batch and the view asking
them instead of branching on the objective's name or the contract."""
import ast
import pathlib

import pytest

import solver
from solver import Deal, Game, Rules
from solver.engine import _engine
from solver.engine.objectives import (LedigScore, Make, Points, Score, engine_metric, make_test,
                                      objective_of)
from solver.engine.search import Solver, engine_position, engine_spec
from solver.errors import SolverError
from solver.model.cards import Suit

# The package as imported: where the tests run on an installed wheel, its own files.
PACKAGE = pathlib.Path(solver.__file__).resolve().parent
TRUMP, LEDIG = Rules(), Rules(contract="ledig")
RULES = [TRUMP, Rules(nat="82"), Rules(multiplier=2, zero_bonus=100), LEDIG,
         Rules(contract="ledig", ledig_trump="chosen"), Rules(contract="ledig", ledig_bonus=0)]


def _round(rules, seed):
    """A round of `rules` after two cards, from the deal `seed`."""
    if rules.contract == "ledig":
        trump = "H" if rules.ledig_trump == "chosen" else None
        game = Game(Deal.random(seed), trump, "N", rules=rules, bidder="E")
    else:
        game = Game(Deal.random(seed), "S", "N", "NS", rules)
    for _ in range(2):
        game.play(game.legal_cards()[0])
    return game


@pytest.mark.parametrize("rules, name, kind", [
    (TRUMP, "points", Points), (TRUMP, "score", Score), (TRUMP, "make", Make),
    (LEDIG, "points", Points), (LEDIG, "score", LedigScore), (LEDIG, "make", Make)])
def test_each_objective_and_contract_has_its_own_object(rules, name, kind):
    assert type(objective_of(rules, name)) is kind


def test_the_unit_says_what_a_value_counts():
    assert [objective_of(TRUMP, name).unit for name in ("points", "score", "make")] == [
        "points", "points", "made"]
    assert [objective_of(LEDIG, name).unit for name in ("points", "score", "make")] == [
        "tricks", "points", "made"]


def test_the_value_ranges_of_ledig_are_its_tricks_and_its_bonus():
    assert objective_of(LEDIG, "points").value_range == (-8, 0)
    assert objective_of(Rules(contract="ledig", ledig_bonus=30), "score").value_range == (-30, 30)
    assert objective_of(TRUMP, "make").value_range == (0, 1)


def test_the_metrics_are_the_engines():
    metric = _engine.Metric
    assert objective_of(TRUMP, "points").metric == metric.METRIC_POINTS
    assert objective_of(TRUMP, "score").metric == metric.METRIC_SCORE
    assert objective_of(LEDIG, "points").metric == metric.METRIC_LEDIG
    # A make and ledig's score are no metric's exact value.
    assert objective_of(TRUMP, "make").metric is None
    assert objective_of(LEDIG, "score").metric is None
    assert objective_of(LEDIG, "score").searched is objective_of(LEDIG, "score").make
    assert engine_metric(LEDIG, "score") == metric.METRIC_LEDIG
    assert make_test(Rules(nat="82", double_suits=("S",)), Suit.S) == (metric.METRIC_CARDS, 164)


def test_only_the_score_that_is_not_its_points_is_solved_in_one_call():
    assert objective_of(TRUMP, "points").solve_metric == _engine.Metric.METRIC_POINTS
    assert objective_of(TRUMP, "score").solve_metric is None
    assert objective_of(Rules(multiplier=2), "score").solve_metric == _engine.Metric.METRIC_SCORE
    assert objective_of(TRUMP, "make").solve_metric is None


def test_an_unknown_objective_is_refused_by_name():
    with pytest.raises(SolverError, match="unknown objective 'tricks'"):
        objective_of(TRUMP, "tricks")
    with pytest.raises(SolverError, match="unknown objective"):
        objective_of(TRUMP, ["points"])


def test_the_same_rules_object_gives_the_same_objective():
    rules = Rules(nat="82")
    assert objective_of(rules, "make") is objective_of(rules, "make")
    assert objective_of(Rules(nat="82"), "make").rules == rules


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.contract}-{r.nat}-{r.ledig_bonus}")
@pytest.mark.parametrize("name", ["points", "score", "make"])
def test_every_value_lies_in_its_range_and_its_line_keeps_it(rules, name):
    solver = Solver(rules, table_mb=1)
    aim = objective_of(rules, name)
    for seed in range(3):
        game = _round(rules, seed)
        value = solver.value(game, name)
        least, most = aim.value_range
        assert least <= value <= most
        line = solver.line(game, name, value)
        metric, low, high = aim.keep(game.trump, value)
        for card in line:
            game.play(card)
        final = _engine.Engine(1)
        final.configure(engine_spec(game))
        assert low <= final.final_value(engine_position(game), metric) <= high


@pytest.mark.parametrize("rules", RULES[3:], ids=["none", "chosen", "no-bonus"])
def test_ledig_score_is_the_bonus_of_its_make(rules):
    solver = Solver(rules, table_mb=1)
    aim = objective_of(rules, "score")
    for seed in range(3):
        game = _round(rules, seed)
        made = solver.value(game, "make")
        assert solver.value(game, "score") == aim.value_of_make(made)
        assert solver.move_values(game, "score") == {
            card: aim.value_of_make(m) for card, m in solver.move_values(game, "make").items()}


def test_a_value_outside_the_range_is_refused_with_the_actual_value():
    game = _round(LEDIG, 0)
    actual = Solver(LEDIG, table_mb=1).value(game, "points")
    with pytest.raises(SolverError, match=f"value 3 is not the value .* it is {actual}"):
        Solver(LEDIG, table_mb=1).line(game, "points", 3)


# -- who branches on what ----------------------------------------------------------------------

# The modules that ask the objective objects: none compares an objective's name with one.
ASKING = ["engine/search.py", "batch/search.py", "analysis/view.py"]


def _objective_comparisons(path):
    """(line, text) of every comparison of `objective` with a constant."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if (any(isinstance(side, ast.Name) and side.id == "objective" for side in sides)
                    and any(isinstance(side, (ast.Constant, ast.Tuple)) for side in sides)):
                found.append((node.lineno, ast.unparse(node)))
    return found


@pytest.mark.parametrize("module", ASKING)
def test_the_searching_modules_ask_the_objective_instead_of_branching(module):
    assert _objective_comparisons(PACKAGE / module) == []


def test_a_ledig_score_without_bonus_does_not_decide_the_make():
    # A ledig_bonus of 0 scores 0 whether or not the bidder takes a trick: the makes were
    # read from the score as "made" every time.
    rules = Rules(contract="ledig", ledig_bonus=0)
    game = Game(Deal.from_pbn("N:9.Q98.KQ.A8 Q.KJ7.97.K9 K7.-.T8.QJT7 AJT8.AT.AJ.-"), None,
                "N", rules=rules, bidder="N")
    solver = Solver(rules)
    values, makes = solver.move_values_and_makes(game, "score")
    assert set(values.values()) == {0}
    assert makes == solver.move_values(game, "make") and not all(makes.values())
