"""A label row (`solver.labels`) back to the round at its position: the one decoding of the
columns `deal`, `trump`, `leader`, `playing` and `played`, shared by `solver.labels.row_game`
and `solver.encode.from_row`.

>>> import numpy as np
>>> row = {"deal": np.arange(32) % 4, "trump": 2, "leader": 0, "playing": 0,
...        "played": np.array([8, 9, 10, 11] + [-1] * 28)}
>>> game = game_from_row(row)
>>> game.trump, game.to_move, len(game.tricks)
(<Suit.H: 2>, <Seat.W: 3>, 1)
"""
from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from ..errors import DealError, LabelsError, SolverError, quote
from .cards import Card, Seat, Suit, Team
from .deal import Deal
from .game import Game
from .rules import RulesLike, check_rules


def game_from_row(row: Any, rules: Optional[RulesLike] = None) -> Game:
    """The `Game` at a label row's position, the row's cards played, under `rules` (the rules
    of the run that wrote the row: its manifest holds them; default Rules()). `row` is anything
    indexed by column name: a dict of one row's values, a pandas row. A column that is missing
    or does not describe a round is a LabelsError naming it."""
    rules = check_rules(rules)
    try:
        deal = Deal(_hands(_column(row, "deal")))
    except DealError as err:
        raise LabelsError(f"label row: column 'deal' is not a deal: {err}") from None
    try:
        trump = Suit.parse(_scalar(row, "trump"))
        leader = Seat.parse(_scalar(row, "leader"))
        playing = Team.parse(_scalar(row, "playing"))
    except SolverError as err:
        raise LabelsError(f"label row: {err}") from None
    game = Game(deal, trump, leader, playing, rules)
    played = _played(_column(row, "played"))
    try:
        game.replay(played)
    except SolverError as err:
        raise LabelsError(f"label row: column 'played' is not a play of this deal under "
                          f"{rules!r}: {err}") from None
    if _has(row, "to_move") and Seat.parse(_scalar(row, "to_move")) != game.to_move:
        raise LabelsError(f"label row: column 'to_move' says {Seat.parse(_scalar(row, 'to_move'))}"
                          f" but after the cards played {game.to_move} is to move")
    return game


def _has(row: Any, name: str) -> bool:
    try:
        row[name]
    except (KeyError, IndexError, TypeError, ValueError):
        return False
    return True


def _column(row: Any, name: str) -> np.ndarray:
    if not _has(row, name):
        raise LabelsError(f"label row has no {name!r} column (a row is indexed by column name: "
                          f"deal, trump, leader, playing, played)")
    values = np.asarray(row[name])
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
    return [[Card.from_index(i) for i in np.flatnonzero(seats == seat)] for seat in range(4)]


def _played(indices: np.ndarray) -> List[Card]:
    """Column `played` (card indices in order, padded with -1) as cards."""
    count = int(np.sum(indices >= 0))
    if (indices[:count] < 0).any() or (indices[count:] != -1).any() or indices.max() > 31:
        raise LabelsError(f"label row: column 'played' holds card indices 0..31 in playing "
                          f"order, then -1, got {quote(indices.tolist())}")
    return [Card.from_index(i) for i in indices[:count]]
