"""Positions of the model (a `Deal`, the cards played, a `Game`) as rows of a batch's arrays.

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "N", "NS")
>>> game.play(game.legal_cards()[0])
>>> arrays = game_rows([game])
>>> arrays["deal"].shape, arrays["played"][0, 1], arrays["trump"].tolist()
((1, 32), np.int8(-1), [2])
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional

import numpy as np

from ..errors import IllegalPlayError, SolverError, quote
from ..model.cards import CardsLike, parse_cards
from ..model.deal import Deal, check_deal
from ..model.game import Game, check_game
from .columns import CARDS


def deal_row(deal: Deal) -> np.ndarray:
    """int8[32]: the seat (0..3 for N E S W) dealt each card, by card index (`suit * 8 +
    rank`): one row of a batch's `deal`.

    >>> deal_row(Deal.from_pbn("N:AKQJT987... .AKQJT987.. ..AKQJT987. ...AKQJT987")).tolist()
    [3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    """
    row: np.ndarray = np.empty(CARDS, dtype=np.int8)
    for seat, hand in enumerate(check_deal(deal).hands):
        row[[card.index for card in hand]] = seat
    return row


def played_row(played: CardsLike) -> np.ndarray:
    """int8[32]: the cards of `played` ("SK S9", or Cards), in order, by card index, padded
    with -1: one row of a batch's `played`.

    >>> played_row("SK S9")[:3].tolist()
    [30, 26, -1]
    """
    cards = parse_cards(played)
    if len(cards) > CARDS:
        raise IllegalPlayError(f"played holds {len(cards)} cards: a round has {CARDS}")
    row: np.ndarray = np.full(CARDS, -1, dtype=np.int8)
    row[:len(cards)] = [card.index for card in cards]
    return row


def game_rows(games: Iterable[Game]) -> Dict[str, Any]:
    """The arguments of `move_values`, `position_values` or `PositionBatch` for the positions of
    `games` (one row each, in order), which play one set of rules: `deal`, `trump` (-1 for no
    trump), `leader`, `playing` and `played` arrays, `bidder` and `dummy` where the rules take
    them, and `rules`. `move_values(**game_rows(games))` gives each game's card values."""
    games = [check_game(game) for game in _listed(games)]
    rules = games[0].rules if games else None
    for index, game in enumerate(games):
        if game.rules != rules:
            raise SolverError(f"games[{index}] plays other rules than games[0]: a batch "
                              f"plays one set of rules")
    arrays: Dict[str, Any] = {
        "deal": np.array([deal_row(game.deal) for game in games],
                         dtype=np.int8).reshape(-1, CARDS),
        "trump": _column(None if game.trump is None else int(game.trump) for game in games),
        "leader": _column(int(game.leader) for game in games),
        "playing": _column(int(game.playing) for game in games),
        "played": np.array([played_row(game.played) for game in games],
                           dtype=np.int8).reshape(-1, CARDS),
        "rules": rules}
    if rules is not None and rules.contract == "ledig":
        arrays["bidder"] = _column(game.bidder for game in games)
    if rules is not None and rules.players == 3:
        arrays["dummy"] = _column(game.dummy for game in games)
    return arrays


def _listed(games: Iterable[Game]) -> List[Game]:
    if isinstance(games, Game) or not hasattr(games, "__iter__"):
        raise SolverError(f"games must be a list of Games, got {quote(games)}")
    return list(games)


def _column(values: Iterable[Optional[int]]) -> np.ndarray:
    """int8[n]: a value per row, -1 where there is none."""
    column: np.ndarray = np.array([-1 if value is None else int(value) for value in values],
                                  dtype=np.int8)
    return column
