"""DDBot: sees all four hands and plays the solver's first optimal card. It is the cheating
upper bound of the arena: its double-dummy loss is 0 by construction.

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> DDBot().act(game, "E")
Card.parse('CT')
"""
from __future__ import annotations

from typing import Optional

from ..engine.search import Solver
from ..model.cards import Card, Seat
from ..model.game import Game
from ..model.scoring import check_objective
from .bot import Bot


class DDBot(Bot):
    """The first card in card order with the best double-dummy value for `objective`
    (`Solver.best_card`): a bot that sees every hand."""

    name = "dd"
    sees_hidden_hands = True

    def __init__(self, seed: Optional[int] = None, objective: str = "points",
                 solver: Optional[Solver] = None) -> None:
        check_objective(objective)
        self.objective = objective
        self.solver = solver
        super().__init__(seed)

    def choose(self, game: Game, seat: Seat) -> Card:
        if self.solver is None or self.solver.rules != game.rules:
            self.solver = Solver(game.rules)
        return self.solver.best_card(game, self.objective)
