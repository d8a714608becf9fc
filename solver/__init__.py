"""klaverjas-solver: an exact double-dummy solver for Klaverjas.

>>> from solver import Deal, Game, Rules
>>> game = Game(Deal.random(1), trump="H", leader="E", playing="NS", rules=Rules.amsterdam())

The model (cards, deals, rules, games, scoring) is plain Python and imported at once. The
names that need the compiled engine are imported on first use, so that a missing or stale
build is reported where it matters (and the `klaverjas` command can say so in one line).
"""
from typing import TYPE_CHECKING

from ._lazy import lazy_names

from ._version import __version__
from .model.cards import Card, Rank, Seat, Suit, Team, parse_cards
from .model.deal import Deal
from .errors import (DealError, IllegalPlayError, NotationError, RecordError, RulesError,
                     SolverError)
from .model.game import Game, Trick
from .model.record import GameRecord
from .model.rules import Rules
from .model.scoring import Tally

# name -> the module that defines it, imported on first use: all but sample_worlds need the
# compiled engine, and a missing or stale build is then reported where it matters.
_LAZY_NAMES = {
    "Solver": "engine.search", "SolveResult": "engine.search", "solve": "engine.search",
    "solve_moves": "engine.search",
    "solve_table": "analysis", "DDTable": "analysis", "analyse_play": "analysis",
    "PlayAnalysis": "analysis", "analyse_bidding": "analysis",
    "BidAnalysis": "analysis", "analyse_view": "analysis", "ViewAnalysis": "analysis",
    "sample_worlds": "model.worlds",
    "LedigTable": "analysis",
}

if TYPE_CHECKING:   # for type checkers and editors: the same names, imported eagerly
    from .analysis import LedigTable
    from .analysis import (BidAnalysis, DDTable, PlayAnalysis, ViewAnalysis,
                           analyse_bidding, analyse_play, analyse_view, solve_table)
    from .model.worlds import sample_worlds
    from .engine.search import SolveResult, Solver, solve, solve_moves


__getattr__, __dir__ = lazy_names(globals(), _LAZY_NAMES)


__all__ = [
    "__version__",
    "Card", "Rank", "Seat", "Suit", "Team", "parse_cards",
    "Deal", "SolverError", "NotationError", "DealError", "IllegalPlayError", "RecordError",
    "RulesError", "Game", "Trick", "Rules", "Tally",
    "Solver", "SolveResult", "solve", "solve_moves",
    "solve_table", "DDTable", "analyse_play", "PlayAnalysis", "GameRecord",
    "analyse_bidding", "BidAnalysis", "analyse_view", "ViewAnalysis", "sample_worlds",
    "LedigTable",
]
