"""The analyses users come for, one module per concept: double-dummy tables (`table`), play
analysis (`play`), bid analysis (`bidding`), single dummy (`view`) and the thread pool they
share (`parallel`). The worlds a player cannot tell apart are the model's
(`solver.model.worlds`; `worlds` here keeps their names importable).

>>> from solver import Deal, Rules, solve_table
>>> table = solve_table(Deal.random(1), rules=Rules.amsterdam())
>>> table.value(trump="H", leader="E") == -table.value(trump="H", leader="E", team="EW")
True

The names below need the compiled engine, so they are imported on first use: importing a
pure module such as `solver.analysis.worlds` does not load the engine.
"""
from typing import TYPE_CHECKING

from .._lazy import lazy_names

# name -> the module of this package that defines it
_NAMES = {
    "DDTable": "table", "LedigTable": "table", "solve_table": "table",
    "PlayStep": "play", "IllegalCard": "play", "ActualResult": "play", "PlayAnalysis": "play",
    "analyse_play": "play",
    "PROCEDURES": "bidding", "ON_ALL_PASS": "bidding", "BidOption": "bidding",
    "BidAnalysis": "bidding", "analyse_bidding": "bidding", "LedigBid": "bidding",
    "CardStats": "view", "ViewAnalysis": "view", "analyse_view": "view",
    "best_view_card": "view",
}

if TYPE_CHECKING:   # for type checkers and editors: the same names, imported eagerly
    from .bidding import (ON_ALL_PASS, PROCEDURES, BidAnalysis, BidOption, LedigBid,
                          analyse_bidding)
    from .play import ActualResult, IllegalCard, PlayAnalysis, PlayStep, analyse_play
    from .table import DDTable, LedigTable, solve_table
    from .view import CardStats, ViewAnalysis, analyse_view, best_view_card


__getattr__, __dir__ = lazy_names(globals(), _NAMES)


__all__ = [
    "DDTable", "LedigTable", "solve_table", "PlayStep",
    "IllegalCard", "ActualResult", "PlayAnalysis", "analyse_play", "PROCEDURES", "ON_ALL_PASS",
    "BidOption", "BidAnalysis", "LedigBid", "analyse_bidding", "CardStats", "ViewAnalysis", "analyse_view",
    "best_view_card",
]
