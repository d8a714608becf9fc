"""Bots that play the cards: one interface (`Bot`: `name`, `act(game, seat)`, `reset(seed)`)
and the baselines to measure a bot against.

- `RandomBot`: a uniformly random legal card.
- `RuleBot`: a club player's rules of thumb, written down (`solver.bots.rule`).
- `PIMCBot`: the best mean card over sampled worlds (`analyse_view`), with an optional time
  budget per move.
- `AlphaMuBot`: αμ search, PIMC that chooses one card for all worlds at its own moves a few
  moves ahead (`solver.bots.alphamu`): a remedy for strategy fusion.
- `DDBot`: sees every hand, plays the first optimal card: the cheating upper bound.
- `LearnedBot` (`solver.bots.learned`): plays the card its card network (`solver.network`,
  trained from the labels by `klaverjas train`) scores highest; by default the one shipped
  in the package. `PolicyBot`, `PolicyModel` (`solver.bots.policy`): the same bot named
  `policy:FILE`, and the one-hidden-layer network it played before. All three are imported
  on first use, with NumPy and `solver.encode`.

A bot that cannot see the hidden hands is given only the round as its seat sees it
(`seat_view`); see `solver.bots.bot`.

>>> from solver import Deal, Game
>>> from solver.bots import RandomBot
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> card = RandomBot(seed=1).act(game, "E")
>>> card in game.legal_cards()
True
"""
from typing import TYPE_CHECKING

from .._lazy import lazy_names
from .alphamu import AlphaMuBot
from .bot import Bot, seat_view
from .dd import DDBot
from .pimc import PIMCBot
from .random_bot import RandomBot
from .rule import RuleBot

if TYPE_CHECKING:   # for type checkers and editors: the same names, imported eagerly
    from .learned import LearnedBot
    from .policy import PolicyBot, PolicyModel

__getattr__, __dir__ = lazy_names(globals(), {"PolicyBot": "policy", "PolicyModel": "policy",
                                              "LearnedBot": "learned"})

__all__ = ["Bot", "seat_view", "RandomBot", "RuleBot", "PIMCBot", "AlphaMuBot", "DDBot",
           "LearnedBot", "PolicyBot", "PolicyModel"]
