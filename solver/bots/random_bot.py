"""RandomBot: a uniformly random legal card, from its own seeded stream.

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> RandomBot(seed=3).act(game, "E") == RandomBot(seed=3).act(game, "E")
True
"""
from __future__ import annotations

from typing import Optional

from ..model.cards import Card, Seat
from ..model.game import Game
from ..model.streams import SplitMix64
from .bot import Bot


class RandomBot(Bot):
    """Plays each legal card with the same chance; the baseline every bot should beat."""

    name = "random"

    def reset(self, seed: Optional[int] = None) -> None:
        super().reset(seed)
        self._rng = SplitMix64(self.seed)

    def choose(self, game: Game, seat: Seat) -> Card:
        legal = game.legal_cards()
        return legal[self._rng.below(len(legal))]
