"""The oracle: plain minimax over `solver.model.game`, no pruning and no table.

Slow on purpose and obviously correct; the engine is tested against it. Use it only on
positions with a few tricks left (a full deal is far beyond it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from ..model.cards import Card
from ..model.game import Game
from ..model.scoring import Value, check_objective


@dataclass(frozen=True)
class ReferenceResult:
    """What `minimax` found: the value from the playing team, and one optimal line."""

    value: Value
    line: List[Card]


def minimax(game: Game, objective: str = "points") -> ReferenceResult:
    """The exact value of `game`'s position for `objective`, and one optimal line.

    The playing team maximises, the defenders minimise (in a ledig round the bidder's team
    is the playing team). `game` is left as it was.
    """
    check_objective(objective)
    value, line = _minimax(game, objective)
    return ReferenceResult(value, line)


def _minimax(game: Game, objective: str) -> Tuple[Value, List[Card]]:
    if game.is_over:
        return game.objective_value(objective), []
    maximising = game.to_move.team == game.playing
    best: Optional[Tuple[Value, List[Card]]] = None
    for card in game.legal_cards():
        game.play(card)
        value, line = _minimax(game, objective)
        game.undo()
        if best is None or (value > best[0] if maximising else value < best[0]):
            best = (value, [card] + line)
    assert best is not None     # a round that is not over has a legal card
    return best


def minimax_moves(game: Game, objective: str = "points") -> Dict[Card, Value]:
    """The value of each legal card of the player to move, both sides optimal afterwards."""
    values: Dict[Card, Value] = {}
    for card in game.legal_cards():
        game.play(card)
        values[card] = minimax(game, objective).value
        game.undo()
    return values
