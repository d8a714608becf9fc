"""The analyses users come for, one module per concept: double-dummy tables (`table`), game
records (`record`), play analysis (`play`) and bid analysis (`bidding`).

>>> from solver import Deal, Rules, solve_table
>>> table = solve_table(Deal.random(1), rules=Rules.amsterdam())
>>> table.value(trump="H", leader="E") == -table.value(trump="H", leader="E", team="EW")
True
"""
from .bidding import ON_ALL_PASS, PROCEDURES, BidAnalysis, BidOption, analyse_bidding
from .play import ActualResult, IllegalCard, PlayAnalysis, PlayStep, analyse_play
from .table import DDTable, solve_table
from .view import CardStats, ViewAnalysis, analyse_view

__all__ = [
    "DDTable", "solve_table", "PlayStep",
    "IllegalCard", "ActualResult", "PlayAnalysis", "analyse_play", "PROCEDURES", "ON_ALL_PASS",
    "BidOption", "BidAnalysis", "analyse_bidding", "CardStats", "ViewAnalysis", "analyse_view",
]
