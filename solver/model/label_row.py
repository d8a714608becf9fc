"""A label row (`solver.labels`) back to the round at its position: the one decoding of the
columns `deal`, `trump`, `leader`, `playing`, `bidder` (ledig), `dummy` (a table of three) and
`played`, shared by `solver.labels.row_game` and `solver.encode.from_row`.

A row does not repeat the rules of its run (the run's manifest holds them): the rules given
must be the run's. A row whose own columns say it needs other rules (a `bidder`, a `dummy`, a
trump of -1, legal cards in `values` that the rules make illegal) is refused, naming the
column, rather than read back as another round.

>>> import numpy as np
>>> row = {"deal": np.arange(32) % 4, "trump": 2, "leader": 0, "playing": 0,
...        "played": np.array([8, 9, 10, 11] + [-1] * 28)}
>>> from solver import Rules
>>> game = game_from_row(row, Rules())
>>> game.trump, game.to_move, len(game.tricks)
(<Suit.H: 2>, <Seat.W: 3>, 1)
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from ..errors import DealError, LabelsError, SolverError, quote
from .cards import Card, Seat, Suit, Team
from .deal import Deal
from .game import Game
from .rules import Rules, RulesLike, check_rules

# The value a label row gives a card that is not legal (in `values` and `score`).
NOT_LEGAL = -32768

# The columns that say where in the round a row is: always, then those a run writes only under
# some rules (ledig's bidder, a table of three's dummy) and those checked when present.
ROW_COLUMNS = ("deal", "trump", "leader", "playing", "played")
OPTIONAL_ROW_COLUMNS = ("bidder", "dummy", "to_move", "values")

# Where the rules a row needs are found.
_RUN_RULES = ("read it under the rules of the run that wrote it: solver.labels.run_config("
              "folder).rules, from its manifest.json")
# A row does not say which rules its values were solved under, and a round rebuilt under other
# rules can have the same legal cards but other values: no rules are guessed.
NEEDS_RULES = ("a label row is read back under the rules of the run that wrote it, which the "
               "row does not repeat: give rules=solver.labels.run_config(folder).rules")


def game_from_row(row: Any, rules: Optional[RulesLike] = None) -> Game:
    """The `Game` at a label row's position, the row's cards played, under `rules`: the rules
    of the run that wrote the row, from its manifest, which a row does not repeat (None is a
    LabelsError saying where to find them). `row` is anything
    indexed by column name: a dict of one row's values, a pandas row. A column that is missing,
    does not describe a round, or says the row was written under other rules is a LabelsError
    naming it."""
    if rules is None:
        raise LabelsError(NEEDS_RULES)
    rules = check_rules(rules)
    try:
        deal = Deal(_hands(_column(row, "deal")))
    except DealError as err:
        raise LabelsError(f"label row: column 'deal' is not a deal: {err}") from None
    trump = _trump(row, rules)
    bidder = _rule_seat(row, "bidder", rules.contract == "ledig",
                        "a ledig round (rules contract='ledig')", f"contract={rules.contract!r}")
    dummy = _rule_seat(row, "dummy", rules.players == 3, "a table of three (rules players=3)",
                       f"players={rules.players}")
    try:
        leader = Seat.parse(_scalar(row, "leader"))
        playing = Team.parse(_scalar(row, "playing"))
        game = Game(deal, trump, leader, playing, rules, bidder=bidder, dummy=dummy)
    except SolverError as err:
        raise LabelsError(f"label row: {err}") from None
    played = _played(_column(row, "played"))
    try:
        game.replay(played)
    except SolverError as err:
        raise LabelsError(f"label row: column 'played' is not a play of this deal under "
                          f"{rules!r}: {err}; {_RUN_RULES}") from None
    if _has(row, "to_move") and Seat.parse(_scalar(row, "to_move")) != game.to_move:
        raise LabelsError(f"label row: column 'to_move' says {Seat.parse(_scalar(row, 'to_move'))}"
                          f" but after the cards played {game.to_move} is to move")
    if _has(row, "values"):
        _check_legal(game, _column(row, "values"), rules)
    return game


def _trump(row: Any, rules: Rules) -> Optional[Suit]:
    """Column `trump`: a suit, or -1 for a ledig round without trump (ledig_trump='none')."""
    value = _scalar(row, "trump")
    none = rules.contract == "ledig" and rules.ledig_trump == "none"
    if _is_minus_one(value):
        if not none:
            raise LabelsError(f"label row: column 'trump' is -1, no trump, as in a ledig round "
                              f"under ledig_trump='none'; the rules given have "
                              f"contract={rules.contract!r}, ledig_trump={rules.ledig_trump!r}: "
                              f"{_RUN_RULES}")
        return None
    try:
        suit = Suit.parse(value)
    except SolverError as err:
        raise LabelsError(f"label row: column 'trump': {err}") from None
    if none:
        raise LabelsError(f"label row: column 'trump' is {suit.name}, but the rules given have "
                          f"ledig rounds without trump (ledig_trump='none', -1 in the column): "
                          f"{_RUN_RULES}")
    return suit


def _rule_seat(row: Any, name: str, needed: bool, what: str, rule: str) -> Optional[Seat]:
    """Column `name` (bidder, dummy), which a run writes exactly when its rules need it."""
    if not needed:
        if _has(row, name):
            raise LabelsError(f"label row has a {name!r} column, which only {what} has; the "
                              f"rules given have {rule}: {_RUN_RULES}")
        return None
    if not _has(row, name):
        raise LabelsError(f"label row has no {name!r} column, which {what} needs: the row "
                          f"cannot be read back without it")
    try:
        return Seat.parse(_scalar(row, name))
    except SolverError as err:
        raise LabelsError(f"label row: column {name!r}: {err}") from None


def _check_legal(game: Game, values: np.ndarray, rules: Rules) -> None:
    """The legal cards of column `values` (those not NOT_LEGAL) must be the round's."""
    marked = {int(i) for i in np.flatnonzero(values != NOT_LEGAL)}
    legal = {card.index for card in game.legal_cards()}
    if marked != legal:
        raise LabelsError(f"label row: column 'values' gives {_cards(marked)} a value, but "
                          f"under {rules!r} the legal cards are {_cards(legal)}: {_RUN_RULES}")


def _cards(indices: Any) -> str:
    return " ".join(str(Card.from_index(i)) for i in sorted(indices)) or "none"


def _is_minus_one(value: Any) -> bool:
    try:
        return bool(np.ndim(value) == 0 and not isinstance(value, (str, bytes)) and value == -1)
    except (TypeError, ValueError):
        return False


def _has(row: Any, name: str) -> bool:
    try:
        row[name]
    except (KeyError, IndexError, TypeError, ValueError):
        return False
    return True


def _column(row: Any, name: str) -> np.ndarray:
    if not _has(row, name):
        raise LabelsError(f"label row has no {name!r} column (a row is indexed by column name: "
                          f"{', '.join(ROW_COLUMNS)})")
    values: np.ndarray = np.asarray(row[name])
    if values.shape != (32,) or not np.issubdtype(values.dtype, np.integer):
        raise LabelsError(f"label row: column {name!r} must be 32 whole numbers, got "
                          f"{quote(row[name])}")
    return values


def _scalar(row: Any, name: str) -> Any:
    if not _has(row, name):
        raise LabelsError(f"label row has no {name!r} column")
    return row[name]


def _hands(seats: np.ndarray) -> List[List[Card]]:
    """Column `deal` (the seat dealt each card index) as four hands."""
    if seats.min() < 0 or seats.max() > 3:
        raise LabelsError(f"label row: column 'deal' holds seats 0..3 (N E S W), got "
                          f"{quote(seats.tolist())}")
    return [[Card.from_index(int(i)) for i in np.flatnonzero(seats == seat)] for seat in range(4)]


def _played(indices: np.ndarray) -> List[Card]:
    """Column `played` (card indices in order, padded with -1) as cards."""
    count = int(np.sum(indices >= 0))
    if (indices[:count] < 0).any() or (indices[count:] != -1).any() or indices.max() > 31:
        raise LabelsError(f"label row: column 'played' holds card indices 0..31 in playing "
                          f"order, then -1, got {quote(indices.tolist())}")
    return [Card.from_index(i) for i in indices[:count]]


def present_columns(columns: Any) -> Tuple[str, ...]:
    """The columns of a labels table (a dict of columns, a pandas DataFrame) that
    `game_from_row` reads: ROW_COLUMNS, then those of OPTIONAL_ROW_COLUMNS it holds."""
    return ROW_COLUMNS + tuple(name for name in OPTIONAL_ROW_COLUMNS if _has(columns, name))
