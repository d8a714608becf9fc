"""The Python API has one kind of error: bad input to any public function raises a
`SolverError` subclass that names the argument, never a TypeError, KeyError, IndexError or a
silently wrong answer."""
import json
import math
import threading

import numpy as np
import pytest
from hypothesis import strategies as st

import solver
from conftest import example_counts, junk_raises_only_solver_errors
from solver import (BidAnalysis, Card, DDTable, Deal, Game, GameRecord, PlayAnalysis,
                    RecordError, Rules, RulesError, Seat, SolveResult, Solver, SolverError,
                    Suit, Team, ViewAnalysis, analyse_bidding, analyse_play, sample_worlds)
from solver.engine.moves import MovesResult

EXAMPLE = "examples/game.json"
HUGE = "1" * 5000


def fresh_game(seed=1):
    return Game(Deal.random(seed), trump="H", leader="E", playing="NS")


def finished_game():
    game = fresh_game()
    while not game.is_over:
        game.play(sorted(game.legal_cards())[0])
    return game


# -- rules: one rule for every integer option ------------------------------------------------

INTEGER_OPTIONS = {"multiplier": 2, "pit_bonus": 50, "revoke_penalty": 50, "zero_bonus": 50}


@pytest.mark.parametrize("option", sorted(INTEGER_OPTIONS))
def test_an_integer_option_takes_a_numpy_integer_as_a_plain_int(option):
    value = getattr(Rules(**{option: np.int64(INTEGER_OPTIONS[option])}), option)
    assert value == INTEGER_OPTIONS[option] and type(value) is int


@pytest.mark.parametrize("option", sorted(INTEGER_OPTIONS))
@pytest.mark.parametrize("read", [lambda o: Rules(**o), Rules.from_dict])
def test_an_integer_option_refuses_a_float_by_name(option, read):
    with pytest.raises(RulesError, match=option):
        read({option: float(INTEGER_OPTIONS[option])})


def test_four_of_a_kind_takes_a_numpy_integer_and_refuses_a_float():
    assert Rules(four_of_a_kind={"J": np.int64(150)}).four_of_a_kind_value(Card.parse("HJ").rank) == 150
    with pytest.raises(RulesError, match="four_of_a_kind"):
        Rules(four_of_a_kind={"J": 150.0})


@pytest.mark.parametrize("options, name", [
    ({"four_of_a_kind": ((1, 2, 3),)}, "four_of_a_kind"),
    ({"nat": np.array([1, 2])}, "nat"),
    ({"trump_duty": np.array(["amsterdam"])}, "trump_duty"),
    ({"multiplier": 10 ** 5000}, "multiplier"),
    ({"pit_bonus": -10 ** 5000}, "pit_bonus"),
])
def test_malformed_rule_options_are_rules_errors_naming_the_option(options, name):
    with pytest.raises(RulesError, match=name):
        Rules(**options)


def test_nat_82_may_be_a_numpy_integer():
    assert Rules(nat=np.int64(82)).nat == "82"


# -- JSON: absurdly long integers --------------------------------------------------------------

def test_a_record_with_an_absurdly_long_integer_names_the_field():
    with pytest.raises(RecordError, match="field 'rules.multiplier' is out of range"):
        GameRecord.from_json(f'{{"trump": "H", "rules": {{"multiplier": {HUGE}}}}}')
    with pytest.raises(RecordError, match="field 'trump' is out of range"):
        GameRecord.from_json(f'{{"trump": {HUGE}}}')


def test_json_lines_name_the_line_of_an_absurdly_long_integer():
    with pytest.raises(RecordError, match="line 1: .*field 'dealer' is out of range"):
        GameRecord.from_json_lines(f'{{"dealer": -{HUGE}}}\n')


# -- reading records ---------------------------------------------------------------------------

def test_load_names_a_missing_file(tmp_path):
    with pytest.raises(RecordError, match="missing.json"):
        GameRecord.load(tmp_path / "missing.json")


def test_load_names_a_directory(tmp_path):
    with pytest.raises(RecordError, match="directory"):
        GameRecord.load(tmp_path)


def test_load_names_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{}")
    with pytest.raises(RecordError, match="not UTF-8 text"):
        GameRecord.load(path)
    with pytest.raises(RecordError, match="not UTF-8 text"):
        GameRecord.load_many(path)


def test_load_reads_a_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + open(EXAMPLE, "rb").read())
    assert GameRecord.load(path) == GameRecord.load(EXAMPLE)


@pytest.mark.parametrize("text", [None, 3, ["{}"], object()])
def test_from_json_of_something_not_text_is_a_record_error(text):
    with pytest.raises(RecordError, match="JSON text"):
        GameRecord.from_json(text)


# -- from_dict of every result type ------------------------------------------------------------

RESULT_TYPES = [SolveResult, MovesResult, DDTable, PlayAnalysis, BidAnalysis, ViewAnalysis,
                GameRecord, solver.LedigTable]


@pytest.mark.parametrize("kind", RESULT_TYPES, ids=lambda kind: kind.__name__)
def test_from_dict_of_an_empty_dict_names_a_missing_field(kind):
    with pytest.raises(SolverError, match="'[a-z_]+'"):
        kind.from_dict({})


@pytest.mark.parametrize("kind", RESULT_TYPES, ids=lambda kind: kind.__name__)
@pytest.mark.parametrize("data", [None, [], "x", 3])
def test_from_dict_of_something_not_a_dict_is_a_solver_error(kind, data):
    with pytest.raises(SolverError):
        kind.from_dict(data)


def test_from_dict_names_a_field_of_the_wrong_shape():
    data = SolveResult("points", 0, {"NS": 0, "EW": 0}, [], 0).to_dict()
    data["line"] = 7
    with pytest.raises(SolverError, match="solve result"):
        SolveResult.from_dict(data)


# -- Solver -----------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [9999, None, 10 ** 12, 1.5, "0"])
def test_line_refuses_a_value_the_position_cannot_have(value):
    with pytest.raises(SolverError, match="value"):
        Solver().line(fresh_game(), "points", value)


def test_line_takes_the_position_s_own_value():
    game, s = fresh_game(), Solver()
    for objective in ("points", "score", "make"):
        assert len(s.line(game, objective, s.value(game, objective))) == 32


def test_line_refuses_a_wrong_make_value():
    game, s = fresh_game(), Solver()
    with pytest.raises(SolverError, match="value"):
        s.line(game, "make", not s.value(game, "make"))


def test_best_card_on_a_finished_round_says_the_round_is_over():
    with pytest.raises(SolverError, match="round is over"):
        Solver().best_card(finished_game())


def test_line_on_a_finished_round_is_empty_for_its_value():
    game, s = finished_game(), Solver()
    assert s.line(game, "points", s.value(game, "points")) == []


def test_a_table_too_big_for_memory_says_how_much_was_asked_for():
    with pytest.raises(SolverError, match=f"{2 ** 20} MB"):
        Solver(table_mb=2 ** 20)


def test_each_result_of_a_shared_solver_counts_its_own_nodes():
    shared, results = Solver(), []
    threads = [threading.Thread(target=lambda seed=seed: results.append(
        shared.solve(Deal.random(seed), "H", "N", "NS"))) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Only these solves ran on the engine: their counts add up to its count, none twice.
    assert len(results) == 8 and sum(r.nodes for r in results) == shared.engine.nodes


# -- sample_worlds weights ---------------------------------------------------------------------

@pytest.mark.parametrize("weight", [float("nan"), float("inf"), -1.0, "x", None, [1]])
def test_a_weight_that_is_not_a_finite_number_of_at_least_0_names_the_world(weight):
    with pytest.raises(SolverError, match="world N:"):
        sample_worlds(fresh_game(), "N", 5, weights=lambda deal: weight)


def test_a_weights_function_that_raises_names_the_world():
    with pytest.raises(SolverError, match="ZeroDivisionError for world N:"):
        sample_worlds(fresh_game(), "N", 5, weights=lambda deal: 1 / 0)


def test_numpy_weights_are_numbers():
    assert len(sample_worlds(fresh_game(), "N", 5, weights=lambda deal: np.float64(2))) == 5


# -- analyses ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", ["x", 1.5, None, [1]])
def test_analyses_name_a_seed_of_the_wrong_type(seed):
    record = GameRecord.load(EXAMPLE)
    with pytest.raises(SolverError, match="seed"):
        analyse_play(record, seed=seed)
    with pytest.raises(SolverError, match="seed"):
        analyse_bidding(record.deal, "N", turned="H", seed=seed)


@pytest.mark.parametrize("wrong", [3, "solver", object()])
def test_analyses_name_a_solver_of_the_wrong_type(wrong):
    record = GameRecord.load(EXAMPLE)
    with pytest.raises(SolverError, match="solver"):
        analyse_play(record, solver=wrong)
    with pytest.raises(SolverError, match="solver"):
        analyse_bidding(record.deal, "N", turned="H", solver=wrong)


# -- every public function, fed junk -----------------------------------------------------------

JUNK = [None, 1.5, math.nan, math.inf, 10 ** 30, -1, -(10 ** 30), 0, "", "junk", "N", "H",
        "NS", "\x00", [], [1, 2], ["HA"], {}, {"a": 1}, b"x", np.array([1, 2]), np.int64(3),
        np.float64(2.5), np.array("H"), object(), True, (1, 2, 3), Suit.H, Seat.N, Team.NS]
junk = st.sampled_from(JUNK) | st.integers() | st.text(max_size=12) | st.floats()


def _solver_of_a_small_table(rules, table_mb):
    """`Solver(rules, table_mb)`, asking for one megabyte too many in place of a large table
    that the machine could give: junk must not fill the memory of the machine running it."""
    if isinstance(table_mb, (int, np.integer)) and not isinstance(table_mb, bool) and \
            64 < table_mb <= 2 ** 20:
        table_mb = 2 ** 20 + 1
    return Solver(rules, table_mb)


def _calls():
    """(name, function, the good arguments) of every public call the test feeds junk."""
    record = GameRecord.load(EXAMPLE)
    deal, game = record.deal, fresh_game()
    late = finished_game()
    late.undo()
    s = Solver()
    result = s.solve(deal, "H", "N", "NS")
    return [
        ("Card.parse", Card.parse, ["HA"]),
        ("parse_cards", solver.parse_cards, ["HA HT"]),
        ("Seat.parse", Seat.parse, ["N"]), ("Suit.parse", Suit.parse, ["H"]),
        ("Team.parse", Team.parse, ["NS"]),
        ("Deal", Deal, [deal.hands if hasattr(deal, "hands") else list(deal)]),
        ("Deal.from_pbn", Deal.from_pbn, [deal.to_pbn()]), ("Deal.random", Deal.random, [3]),
        ("Rules.from_dict", Rules.from_dict, [{"multiplier": 2}]),
        ("Game", Game, [deal, "H", "N", "NS", None]),
        ("Game.play", late.copy().play, [sorted(late.legal_cards())[0]]),
        ("Game.replay", fresh_game().replay, [["HA"]]),
        ("Game.tally", late.tally, ["NS"]),
        ("Solver", _solver_of_a_small_table, [None, 1]),
        ("Solver.solve", s.solve, [deal, "H", "N", "NS", None, list(record.played[:28])]),
        ("Solver.solve_moves", s.solve_moves, [deal, "H", "N", "NS", None, list(record.played[:28])]),
        ("Solver.value", s.value, [late, "points"]),
        ("Solver.move_values", s.move_values, [late, "points"]),
        ("Solver.line", s.line, [late, "points", s.value(late, "points")]),
        ("Solver.best_card", s.best_card, [late, "points"]),
        ("Solver.make_value", s.make_value, [late, None]),
        ("solve", solver.solve, [deal, "H", "N", "NS", None, list(record.played[:28])]),
        ("solve_moves", solver.solve_moves, [deal, "H", "N", "NS", None, list(record.played[:28])]),
        ("solve_table", solver.solve_table, [deal, None, None, None]),
        ("analyse_play", analyse_play, [record]),
        ("analyse_bidding", analyse_bidding, [deal, "N", None, "draaikaart", "H"]),
        ("analyse_view", solver.analyse_view, [late, None, 4, 0, "points"]),
        ("sample_worlds", sample_worlds, [game, "N", 3, 0, None]),
        ("GameRecord", GameRecord, [deal, "H", "N", "NS"]),
        ("GameRecord.from_dict", GameRecord.from_dict, [record.to_dict()]),
        ("GameRecord.from_json", GameRecord.from_json, [json.dumps(record.to_dict())]),
        ("GameRecord.from_json_lines", GameRecord.from_json_lines, [json.dumps(record.to_dict())]),
        ("GameRecord.load", GameRecord.load, [EXAMPLE]),
        ("SolveResult.from_dict", SolveResult.from_dict, [result.to_dict()]),
        ("DDTable.from_dict", DDTable.from_dict, [{"deal": deal.to_pbn()}]),
        ("LedigTable.from_dict", solver.LedigTable.from_dict, [{"deal": deal.to_pbn()}]),
        ("PlayAnalysis.from_dict", PlayAnalysis.from_dict, [{"record": record.to_dict()}]),
        ("BidAnalysis.from_dict", BidAnalysis.from_dict, [{"deal": deal.to_pbn()}]),
        ("ViewAnalysis.from_dict", ViewAnalysis.from_dict, [{"seat": "N"}]),
        ("MovesResult.from_dict", MovesResult.from_dict, [{"objective": "points"}]),
    ]


CALLS = _calls()


def test_the_junk_test_covers_every_public_function():
    named = {name.split(".")[0] for name, _, _ in CALLS}
    public = {name for name in solver.__all__ if callable(getattr(solver, name))
              and not (isinstance(getattr(solver, name), type)
                       and issubclass(getattr(solver, name), BaseException))}
    left = public - named - {"Rank", "Trick", "Tally", "ViewAnalysis"}
    assert not left, left


@pytest.mark.parametrize("examples", example_counts(300, 20))
def test_every_public_function_fed_junk_raises_only_solver_errors(examples):
    junk_raises_only_solver_errors(CALLS, junk, max_examples=examples,
                                   derandomize=examples < 1000)


@pytest.mark.parametrize("count", [10 ** 30, 100_001])
def test_a_number_of_worlds_no_run_could_finish_is_refused_by_name(count):
    with pytest.raises(SolverError, match="worlds"):
        sample_worlds(fresh_game(), "N", count)
    with pytest.raises(SolverError, match="worlds"):
        solver.analyse_view(fresh_game(), worlds=count)
