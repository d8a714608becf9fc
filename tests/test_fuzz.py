"""Fuzzing: whatever the input, only the documented errors come out, and values stay exact.

The default run keeps each property short; `python -m pytest -m slow` runs them at length.
"""
import io
import json
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays

from conftest import SLOW, example_counts, positions
from solver import (Card, Deal, DealError, Game, GameRecord, NotationError, RecordError, Rules,
                    RulesError, Solver, SolverError)
from solver.batch import NOT_LEGAL, PositionBatch, game_rows
from solver.cli import main
from solver.engine.reference import minimax
from solver.model.cards import ALL_CARDS
from solver.model.rules import MAX_AMOUNT
from solver.model.scoring import value_for_team

DEAL = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"
PLAYED = "SK S9 SA SJ  HJ HA HT H9  C9 CJ C7 CT  ST SQ S8 S7  D8 D7 DJ D9  CQ C8 DT DA"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
notation_text = st.text(alphabet="NESW:.AKQJT1098-7 shdc\t♠♥", max_size=60)
# Every option at any value its range allows.
ranged_rules = st.builds(
    Rules, trump_duty=st.sampled_from(["amsterdam", "rotterdam"]),
    undertrump=st.sampled_from(["forbidden", "must", "free"]),
    roem=st.sampled_from(["table", "hand", "none"]), stuk=st.sampled_from(["trick", "hand", "none"]),
    four_of_a_kind=st.dictionaries(st.sampled_from(list("789TJQKA")), st.integers(0, MAX_AMOUNT)),
    pit=st.sampled_from(["any", "playing", "none"]), pit_bonus=st.integers(0, MAX_AMOUNT),
    double_suits=st.lists(st.sampled_from("CDHS"), unique=True),
    nat=st.sampled_from(["majority", "82", "none"]), multiplier=st.sampled_from([1, 2, 4, 8]),
    revoke_penalty=st.integers(0, MAX_AMOUNT), zero_bonus=st.integers(0, MAX_AMOUNT),
    hand_roem_needs_trick=st.booleans())


@pytest.mark.parametrize("examples", example_counts(100))
def test_deal_notation_gives_a_deal_or_a_deal_error(examples):
    @settings(max_examples=examples, deadline=None)
    @given(notation_text | st.text(max_size=60) | json_values)
    def check(text):
        try:
            deal = Deal.from_pbn(text)
        except DealError:
            return
        assert Deal.from_pbn(deal.to_pbn()) == deal
    check()


@pytest.mark.parametrize("examples", example_counts(100))
def test_cards_give_a_card_or_a_notation_error(examples):
    @settings(max_examples=examples, deadline=None)
    @given(st.text(alphabet="CDHS♠♥AKQJT10987xX -", max_size=5) | json_values)
    def check(text):
        try:
            card = Card.parse(text)
        except NotationError:
            return
        assert Card.parse(str(card)) is card
    check()


@pytest.mark.parametrize("examples", example_counts(100))
def test_rules_give_rules_or_a_rules_error(examples):
    names = st.sampled_from([f for f in Rules().to_dict()] + ["bogus"])
    @settings(max_examples=examples, deadline=None)
    @given(st.dictionaries(names, json_values | st.sampled_from(
        ["amsterdam", "hand", "none", "82", 100, 2**31, ["S"], {"J": 200}]), max_size=5) | json_values)
    def check(options):
        try:
            rules = Rules.from_dict(options)
        except RulesError:
            return
        assert Rules.from_dict(rules.to_dict()) == rules
    check()


@pytest.mark.parametrize("examples", example_counts(60))
def test_records_give_a_record_or_a_record_error(examples):
    fields = {"deal": st.sampled_from([DEAL, "N:A7"]), "dealer": st.sampled_from(["E", "W", None]),
              "leader": st.sampled_from(["S", "N", None]), "trump": st.sampled_from(["S", "H"]),
              "playing": st.sampled_from(["EW", "NS"]), "rules": st.sampled_from(["amsterdam", {}]),
              "played": st.sampled_from([PLAYED, PLAYED.split()[:7], PLAYED + " SA", "SK SK"]),
              "chooser_leads": st.booleans()}
    values = {name: strategy | json_values for name, strategy in fields.items()}
    @settings(max_examples=examples, deadline=None)
    @given(st.fixed_dictionaries({}, optional=values) | json_values)
    def check(data):
        try:
            record = GameRecord.from_dict(data)
        except RecordError:
            return
        assert GameRecord.from_dict(record.to_dict()) == record
    check()


RECORD = json.dumps({"deal": DEAL, "dealer": "E", "trump": "S", "playing": "EW", "played": PLAYED})
# Valid command lines, quick to run (late positions); the fuzz mutates them.
TEMPLATES = {
    "solve": [DEAL, "--trump", "S", "--leader", "S", "--playing", "EW", "--played", PLAYED],
    "analyse": [RECORD],
    "bid": [DEAL, "--dealer", "W", "--procedure", "utrechts", "--bid", "N H"],
    "table": [DEAL],
}
# Commands that solve dozens of full deals are always mutated, to keep the fuzz quick.
SLOW_COMMANDS = ("bid", "table")
JUNK = ["", "-", "-x", "N:A7", DEAL[2:], "X", "NE", "SK SK", "XX", "bogus", "{", "[]", "{}",
        '{"pit_bonus": -1}', "nofile.json", "7", "E", "auction", "N 7", "\x00", "9" * 100]
OPTIONS = ["--trump", "--leader", "--playing", "--played", "--objective", "--rules", "--dealer",
           "--procedure", "--turned", "--bid", "--on-all-pass"]
FLAGS = ["--json", "--moves", "--chooser-leads", "--help", "--bogus"]


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(sorted(TEMPLATES) + ["nosuch"]))
    argv = [command] + list(TEMPLATES.get(command, []))
    least = 1 if command in SLOW_COMMANDS else 0
    for _ in range(max(least, draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3])))):
        how = draw(st.sampled_from(["replace", "drop", "flag", "option"]))
        if how == "replace" and len(argv) > 1:
            argv[draw(st.integers(1, len(argv) - 1))] = draw(st.sampled_from(JUNK))
        elif how == "drop" and len(argv) > 1:
            del argv[draw(st.integers(1, len(argv) - 1))]
        elif how == "flag":
            argv.append(draw(st.sampled_from(FLAGS)))
        else:
            argv += [draw(st.sampled_from(OPTIONS)), draw(st.sampled_from(JUNK + ["S", "score"]))]
    if command in SLOW_COMMANDS and DEAL in argv:
        argv[argv.index(DEAL)] = draw(st.sampled_from(JUNK))
    return argv


@pytest.mark.parametrize("examples", example_counts(40))
def test_the_command_ends_with_status_0_or_one_error_line(examples):
    @settings(max_examples=examples, **SLOW)
    @given(command_lines())
    def check(argv):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exit_:        # --help and --version end through argparse
                assert exit_.code == 0 and "--help" in argv
                return
        if status == 0:
            assert out.getvalue() and err.getvalue() == ""
            if "--json" in argv:
                json.loads(out.getvalue())
        else:
            assert status == 2 and out.getvalue() == ""
            assert err.getvalue().startswith("klaverjas: error: ") and err.getvalue().count("\n") == 1
    check()


@pytest.mark.parametrize("examples", example_counts(30))
def test_values_equal_the_reference_under_any_rules_in_range(examples):
    @settings(max_examples=examples, **SLOW)
    @given(positions(rules=ranged_rules, tricks_left=st.integers(1, 3)))
    def check(game):
        solver = Solver(table_mb=1)
        for objective in ("points", "score", "make"):
            assert solver.value(game, objective) == minimax(game, objective).value, objective
    check()


@pytest.mark.parametrize("examples", example_counts(30))
def test_solve_raises_only_documented_errors(examples):
    solver = Solver(table_mb=1)
    @settings(max_examples=examples, **SLOW)
    @given(st.sampled_from(["S", "H", "x", 3]), st.sampled_from(["S", "N", None]),
           st.sampled_from(["EW", "NS", "X"]), st.sampled_from([PLAYED, "", "SK SK", 5, ["SK"]]),
           st.sampled_from(["points", "make", "score", "Points", None]), ranged_rules | json_values)
    def check(trump, leader, playing, played, objective, rules):
        try:
            result = solver.solve(Deal.from_pbn(DEAL), trump, leader, playing, rules, played,
                                  objective)
        except SolverError:
            return
        assert isinstance(result.value, (bool, int))
    check()


# -- the batch: junk for any argument gives a SolverError or exact values ----------------------

def _batch_games():
    games = []
    for seed in range(3):
        game = Game(Deal.random(seed), "SHDC"[seed], "NESW"[seed], ["NS", "EW"][seed % 2])
        while len(game.played) < 25 + seed:
            game.play(sorted(game.legal_cards())[seed % len(game.legal_cards())])
        games.append(game)
    return games


BATCH_GAMES = _batch_games()
BATCH_ROWS = game_rows(BATCH_GAMES)
numbers = st.integers(-2, 40) | st.sampled_from([127, 128, 255, 256, 300, -129, 2**31, 2**63,
                                                  2**70])
array_junk = (json_values | st.lists(numbers, max_size=4) | st.sampled_from(["H", "NS", "X", ""])
              | st.builds(lambda array, dtype: array.astype(dtype),
                          arrays(np.int64, array_shapes(min_dims=0, max_dims=3, max_side=33),
                                 elements=st.integers(-2, 40)),
                          st.sampled_from([np.int8, np.int64, np.uint8, np.float64, np.bool_])))


def _spoiled(draw, name, valid, junk):
    """The valid value of `name`, or junk (a third of the time)."""
    return draw(junk) if draw(st.integers(0, 2)) == 0 else valid


def _game_of_row(batch, row):
    """Row `row` of a batch as the batch checked it, rebuilt as a Game after its plays."""
    rows = batch.rows
    deal = Deal([[ALL_CARDS[c] for c in np.nonzero(rows.deal[row] == seat)[0]]
                 for seat in range(4)])
    game = Game(deal, int(rows.trump[row]), int(rows.leader[row]), int(rows.playing[row]),
                batch.rules)
    game.replay([ALL_CARDS[c] for c in rows.played[row] if c >= 0])
    return game


def _as_given(value, checked):
    """Whether numbers given are the numbers the batch took (no wrap into int8)."""
    given_ = np.asarray(value)
    if given_.dtype.kind not in "iu":
        return True      # letters, read by the parsers
    return np.array_equal(np.broadcast_to(given_.astype(object), checked.shape),
                          checked.astype(object))


@pytest.mark.parametrize("examples", example_counts(60))
def test_the_batch_raises_only_solver_errors_and_what_it_takes_it_solves_exactly(examples):
    @settings(max_examples=examples, **SLOW)
    @given(st.data())
    def check(data):
        draw = data.draw
        arguments = {name: _spoiled(draw, name, BATCH_ROWS[name], array_junk)
                     for name in ("deal", "trump", "leader", "playing", "played")}
        objective = _spoiled(draw, "objective", "points", st.sampled_from(["make", "score", 3]))
        rules = _spoiled(draw, "rules", None, ranged_rules | json_values)
        try:
            batch = PositionBatch(**arguments, rules=rules, workers=1, table_mb=1)
            picked = _spoiled(draw, "rows", None, array_junk)
            values = batch.values(objective, picked)
        except SolverError:
            return
        for name, value in arguments.items():
            assert _as_given(value, getattr(batch.rows, name)), name
        picked = np.arange(batch.count) if picked is None else np.asarray(picked).reshape(-1)
        assert _as_given(picked, np.asarray(picked))
        solver = Solver(batch.rules, table_mb=1)
        for i, row in enumerate(picked.tolist()):
            game = _game_of_row(batch, row)
            expected = {c.index: int(value_for_team(v, game.to_move.team, game.playing))
                        for c, v in solver.move_values(game, objective).items()}
            assert {c: int(v) for c, v in enumerate(values[i]) if v != NOT_LEGAL} == expected
    check()


@pytest.mark.parametrize("examples", example_counts(60))
def test_against_raises_only_solver_errors_and_its_bounds_hold(examples):
    batch = PositionBatch(**BATCH_ROWS, workers=1, table_mb=1)
    truth = batch.values("points")
    legal = [int(np.nonzero(row != NOT_LEGAL)[0][0]) for row in truth]
    @settings(max_examples=examples, **SLOW)
    @given(st.data())
    def check(data):
        draw = data.draw
        picked = _spoiled(draw, "rows", None, array_junk)
        lead = _spoiled(draw, "lead", legal, array_junk)
        margin = _spoiled(draw, "margin", None, array_junk)
        try:
            values, exact = batch.against("points", lead, picked, margin)
        except SolverError:
            return
        rows = np.arange(batch.count) if picked is None else np.asarray(picked).reshape(-1)
        leads = np.broadcast_to(np.asarray(lead), rows.shape)
        for i, row in enumerate(rows.tolist()):
            true, lead_card = truth[row], int(leads[i])
            assert values[i, lead_card] == true[lead_card] and exact[i, lead_card]
            for card in np.nonzero(true != NOT_LEGAL)[0]:
                if exact[i, card]:
                    assert values[i, card] == true[card]
                else:      # a bound: the card is no better than it, nor than the lead
                    assert true[card] <= values[i, card] <= true[lead_card]
    check()
