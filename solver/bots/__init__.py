"""Bots that play the cards: one interface (`Bot`: `name`, `act(game, seat)`, `reset(seed)`)
and the baselines to measure a bot against.

- `RandomBot`: a uniformly random legal card.

A bot that cannot see the hidden hands is given only the round as its seat sees it
(`seat_view`); see `solver.bots.bot`.

>>> from solver import Deal, Game
>>> from solver.bots import RandomBot
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> card = RandomBot(seed=1).act(game, "E")
>>> card in game.legal_cards()
True
"""
from .bot import Bot, seat_view
from .random_bot import RandomBot

__all__ = ["Bot", "seat_view", "RandomBot"]
