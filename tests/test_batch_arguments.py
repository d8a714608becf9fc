"""Every array argument of every public function and method of solver.batch is checked before
the engine reads it: a wrong length, shape or type, a ragged list or a value out of range is a
SolverError subclass naming the argument (and the row of a bad value) in one short line,
never a crash, a NumPy error or a value read past an array's end."""
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, example_counts
from solver import Deal, Game, IllegalPlayError, NotationError, Rules, SolverError
from solver.batch import (PositionBatch, deal_row, game_rows, move_values, played_row,
                          position_values)

# The longest message a batch error may have: errors.md promises about 80 characters of the
# input, and a row number and the field's name come on top.
SHORT = 120
ROWS = 3


def _games(kind):
    """Three positions a few cards into the round, of a trump round, a ledig round or a round
    at a table of three."""
    games = []
    for seed in range(ROWS):
        if kind == "ledig":
            game = Game(Deal.random(seed), None, "E", rules=Rules(contract="ledig"), bidder="S")
        elif kind == "three":
            game = Game(Deal.random(seed), "H", "E", rules=Rules(players=3), dummy="N")
        else:
            game = Game(Deal.random(seed), "S", "W", "EW")
        for _ in range(seed + 2):
            game.play(game.legal_cards()[-1])
        games.append(game)
    return games


BASES = {kind: dict(game_rows(_games(kind)), workers=1, table_mb=1)
         for kind in ("trump", "ledig", "three")}
# A legal card of each row of the trump round, for against().
LEADS = [min(card.index for card in game.legal_cards()) for game in _games("trump")]

# argument -> (the base it spoils, least and largest allowed value, rows x columns)
COLUMNS = {"trump": ("trump", 0, 3), "leader": ("trump", 0, 3), "playing": ("trump", 0, 1),
           "bidder": ("ledig", 0, 3), "dummy": ("three", 0, 3)}
MATRICES = {"deal": (0, 3), "played": (-1, 31)}

OUT_OF_RANGE_BEYOND = [1, 2, 100, 128, 300, 2**31, 2**63 - 1]


def _construct(entry):
    """The function an entry stands for, called with a batch's keyword arguments."""
    return {"move_values": move_values, "position_values": position_values,
            "PositionBatch": PositionBatch}[entry]


def _call_method(method, **arguments):
    batch = PositionBatch(**BASES["trump"])
    if method == "values":
        return batch.values("points", **arguments)
    if method == "position_values":
        return batch.position_values("points", **arguments)
    return batch.against("points", **{"lead": LEADS, **arguments})


@st.composite
def spoiled_column(draw, count, least, most, kind="number"):
    """(a wrong value for a column of `count` rows, text its error must hold)."""
    good = draw(st.integers(least, most))
    how = draw(st.sampled_from(["length", "shape", "ragged", "type", "range", "huge"]))
    if how == "length":
        length = draw(st.integers(0, count + 3).filter(lambda n: n != count))
        return [good] * length, None
    if how == "shape":
        return [[good] * count], None
    if how == "ragged":
        return [[good]] + [[good, good]] * (count - 1), None
    if how == "type":
        return draw(st.sampled_from([[0.5] * count, [True] * count, [None] * count,
                                     ["nonsense"] * count, {}, object(), 1.5, b"x",
                                     [object()] * count])), None
    row = draw(st.integers(0, count - 1))
    beyond = draw(st.sampled_from(OUT_OF_RANGE_BEYOND))
    bad = draw(st.sampled_from([least - beyond, most + beyond])) if how == "range" else 2**70
    values = [good] * count
    values[row] = bad
    return values, f"row {row}: "


@st.composite
def spoiled_matrix(draw, valid, least, most):
    """(a wrong value for a matrix like `valid`, text its error must hold)."""
    count = len(valid)
    how = draw(st.sampled_from(["columns", "rows", "shape", "ragged", "type", "range"]))
    if how == "columns":
        return valid[:, :draw(st.integers(0, 31))], None
    if how == "rows":
        return np.concatenate([valid, valid])[:draw(st.integers(0, 2 * count).filter(
            lambda n: n != count))], None
    if how == "shape":
        return draw(st.sampled_from([valid[0], valid[None], valid.reshape(-1)])), None
    if how == "ragged":
        return [list(valid[0]), list(valid[1][:5])] + [list(row) for row in valid[2:]], None
    if how == "type":
        return draw(st.sampled_from([valid.astype(float), valid.astype(bool),
                                     valid.astype(str), [None] * count, "N:...", 3])), None
    row, column = draw(st.integers(0, count - 1)), draw(st.integers(0, 31))
    beyond = draw(st.sampled_from(OUT_OF_RANGE_BEYOND[:-1]))     # inside int64
    spoiled = valid.astype(np.int64)
    spoiled[row, column] = draw(st.sampled_from([least - beyond, most + beyond]))
    return spoiled, f"row {row}: "


@st.composite
def spoiled_rows(draw):
    how = draw(st.sampled_from(["range", "shape", "type", "ragged"]))
    if how == "range":
        picked = [0] * draw(st.integers(1, 4))
        index = draw(st.integers(0, len(picked) - 1))
        picked[index] = draw(st.sampled_from([-1, -300, ROWS, ROWS + 1, 2**40]))
        return picked, f"rows[{index}]"
    wrong = {"shape": [[[0]], 0], "type": [[0.0], [True], ["0"], {}],
             "ragged": [[[0], [0, 1]]]}[how]
    return draw(st.sampled_from(wrong)), None


@st.composite
def spoiled_margin(draw):
    how = draw(st.sampled_from(["length", "shape", "type", "range"]))
    if how == "length":
        return [0] * draw(st.sampled_from([0, 1, 16, 31, 33, 64])), None
    if how == "shape":
        return [[0] * 32], None
    if how == "type":
        return draw(st.sampled_from([[0.5] * 32, ["a"] * 32, {}, [[0], [0, 1]], "x"])), None
    card = draw(st.integers(0, 31))
    margin = [0] * 32
    margin[card] = draw(st.sampled_from([-1, -128, 32000, 2**15, 2**40]))
    return margin, f"margin[{card}]"


@st.composite
def spoiled_calls(draw):
    """(a call that must fail, the argument it spoiled, text its error must hold)."""
    target = draw(st.sampled_from(sorted(COLUMNS) + sorted(MATRICES)
                                  + ["rows", "lead", "margin"]))
    if target in COLUMNS:
        kind, least, most = COLUMNS[target]
        value, marker = draw(spoiled_column(ROWS, least, most))
        entry = draw(st.sampled_from(["move_values", "position_values", "PositionBatch"]))
        arguments = dict(BASES[kind], **{target: value})
        return (lambda: _construct(entry)(**arguments)), target, marker
    if target in MATRICES:
        least, most = MATRICES[target]
        value, marker = draw(spoiled_matrix(BASES["trump"][target], least, most))
        entry = draw(st.sampled_from(["move_values", "position_values", "PositionBatch"]))
        arguments = dict(BASES["trump"], **{target: value})
        return (lambda: _construct(entry)(**arguments)), target, marker
    if target == "rows":
        value, marker = draw(spoiled_rows())
        method = draw(st.sampled_from(["values", "position_values", "against"]))
        return (lambda: _call_method(method, rows=value)), "rows", marker
    if target == "lead":
        value, marker = draw(spoiled_column(ROWS, 0, 31))
        return (lambda: _call_method("against", lead=value)), "lead", marker
    value, marker = draw(spoiled_margin())
    return (lambda: _call_method("against", margin=value)), "margin", marker


@pytest.mark.parametrize("examples", example_counts(150))
def test_a_spoiled_array_argument_is_an_error_naming_it_in_one_short_line(examples):
    @settings(max_examples=examples, **SLOW)
    @given(spoiled_calls())
    def check(spoiled):
        call, argument, marker = spoiled
        with pytest.raises(SolverError) as raised:
            call()
        message = str(raised.value)
        assert type(raised.value) is not SolverError or argument in ("rows", "margin"), message
        assert argument in message and len(message) <= SHORT and "\n" not in message, message
        if marker is not None:
            assert message.startswith(marker) or marker in message, message
    check()


def test_a_margin_list_shorter_than_the_cards_is_refused_not_read_past_its_end():
    """The engine read margin[card] for all 32 cards of a shorter list: a crash (in a child
    process here, so that a crash fails this test alone)."""
    code = ("import numpy as np\nfrom solver import Deal\n"
            "from solver.batch import PositionBatch, deal_row\n"
            "batch = PositionBatch(deal_row(Deal.random(1))[None], 0, 0, 0, workers=1)\n"
            "lead = [int(np.nonzero(batch.values()[0] != -32768)[0][0])]\n"
            "for margin in ([], [0], [3] * 31):\n"
            "    try:\n        batch.against('points', lead, margin=margin)\n"
            "    except ValueError as err:\n        print(type(err).__name__, err)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-500:]
    assert run.stdout.splitlines() == [
        f"SolverError margin must have 32 numbers (one per card index) or one for all, got "
        f"shape ({n},)" for n in (0, 1, 31)]


def test_a_lead_out_of_range_is_refused_before_it_wraps_to_another_card():
    batch = PositionBatch(**BASES["trump"])
    with pytest.raises(NotationError, match=r"^row 1: lead is 300, not a card 0\.\.31"):
        batch.against("points", [LEADS[0], 300, LEADS[2]])
    with pytest.raises(NotationError, match=r"^lead must have one value per row picked \(3\)"):
        batch.against("points", LEADS[:2])


def test_a_lead_that_is_not_legal_in_its_row_is_refused_naming_the_row():
    games = _games("trump")
    held = [c.index for c in games[2].hands[games[2].to_move.partner]]
    batch = PositionBatch(**BASES["trump"])
    with pytest.raises(IllegalPlayError, match=r"^row 2: lead \d+ \(\w+\) is not a legal card"):
        batch.against("points", LEADS[:2] + held[:1])


def test_a_lead_may_be_one_card_for_every_row_and_written_as_a_card():
    game = _games("trump")[0]
    batch = PositionBatch(**game_rows([game]))
    card = game.legal_cards()[0]
    by_index = batch.against("points", [card.index])
    by_text = batch.against("points", str(card))
    assert all((a == b).all() for a, b in zip(by_index, by_text))


def test_rows_out_of_the_batch_are_refused_by_number():
    batch = PositionBatch(**BASES["trump"])
    with pytest.raises(SolverError, match=r"^rows\[0\] is 5, not a row 0\.\.2"):
        batch.values(rows=[5])
    with pytest.raises(SolverError, match=r"^rows\[1\] is -1, not a row 0\.\.2"):
        batch.position_values(rows=[0, -1])


def test_a_ragged_list_is_an_error_naming_the_argument():
    deal = BASES["trump"]["deal"]
    with pytest.raises(SolverError, match="^deal is ragged"):
        move_values([list(deal[0]), list(deal[1][:31])], 0, 0, 0)
    with pytest.raises(SolverError, match="^trump is ragged"):
        move_values(deal, [[0], [0, 1], [0]], 0, 0)


def test_a_bad_row_is_named_by_its_index_and_field_without_quoting_the_row():
    arguments = BASES["trump"]
    deal = arguments["deal"].copy()
    deal[1, 7] = 9
    with pytest.raises(SolverError) as raised:
        move_values(**dict(arguments, deal=deal))
    assert str(raised.value) == "row 1: deal[7] is 9, not a seat 0..3"
    played = arguments["played"].copy()
    played[2, 30] = 40
    with pytest.raises(SolverError) as raised:
        move_values(**dict(arguments, played=played))
    assert str(raised.value) == "row 2: played[30] is 40, not a card 0..31, or -1 after the last"


def test_the_model_helpers_refuse_what_is_not_a_deal_cards_or_games():
    with pytest.raises(SolverError, match="deal must be a Deal"):
        deal_row(np.zeros(32))
    with pytest.raises(SolverError):
        played_row(["XX"])
    with pytest.raises(SolverError, match="played holds 40 cards"):
        played_row([c for c in Deal.random(1).hands[0]] * 5)
    with pytest.raises(SolverError, match="games must be a list of Games"):
        game_rows(5)
    with pytest.raises(SolverError, match=r"games\[1\] plays other rules"):
        game_rows([_games("trump")[0], _games("three")[0]])


def test_a_broken_duty_or_a_wrong_bidder_is_named_in_one_short_line():
    """The Game's own message of a bad row lists the legal cards: the batch names the row,
    the field and the duty without them."""
    for seed in range(500):
        game = Game(Deal.random(seed), "H", "N", "NS", Rules(undertrump="must"))
        for _ in range(seed % 24):
            game.play(game.legal_cards()[0])
        wrong = [card for card in game.hands[game.to_move] if card not in game.legal_cards()]
        if wrong:
            with pytest.raises(IllegalPlayError) as raised:
                game.copy().play(wrong[0])
            if len(f"row 0: played[{len(game.played)}]: {raised.value}") > SHORT:
                break
    else:
        pytest.fail("no position whose Game message is long")
    arguments = game_rows([game])
    arguments["played"][0, len(game.played)] = wrong[0].index
    with pytest.raises(IllegalPlayError) as raised:
        move_values(**arguments)
    message = str(raised.value)
    assert message.startswith(f"row 0: played[{len(game.played)}]: ") and \
        "breaks the duty" in message and len(message) <= SHORT, message
    with pytest.raises(SolverError) as raised:
        move_values(**dict(BASES["ledig"], playing=1))
    assert str(raised.value).startswith("row 0: bidder=S") and len(str(raised.value)) <= SHORT


def test_a_suit_letter_where_ledig_has_no_trump_says_that_trump_is_minus_1():
    arguments = BASES["ledig"]
    with pytest.raises(NotationError) as raised:
        move_values(**dict(arguments, trump="S"))
    assert str(raised.value) == ("trump is 'S', not -1: a ledig round under "
                                 "ledig_trump='none' has no trump")
    with pytest.raises(NotationError, match=r"^row 1: trump is 'H', not -1"):
        move_values(**dict(arguments, trump=[-1, "H", -1]))
