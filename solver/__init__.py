"""klaverjas-solver: an exact double-dummy solver for Klaverjas.

>>> from solver import Deal, Game, Rules
>>> game = Game(Deal.random(1), trump="H", leader="E", playing="NS", rules=Rules.amsterdam())
"""
from .cards import Card, Rank, Seat, Suit, Team, parse_cards
from .deal import Deal
from .errors import DealError, IllegalPlayError, RecordError, RulesError
from .game import Game, Trick
from .rules import Rules
from .scoring import Tally
from .search import SolveResult, Solver, solve, solve_moves
from .analysis import (BidAnalysis, DDTable, GameRecord, PlayAnalysis, analyse_bidding,
                       analyse_play, solve_table)

__all__ = [
    "Card", "Rank", "Seat", "Suit", "Team", "parse_cards",
    "Deal", "DealError", "IllegalPlayError", "RecordError", "RulesError",
    "Game", "Trick", "Rules", "Tally",
    "Solver", "SolveResult", "solve", "solve_moves",
    "solve_table", "DDTable", "analyse_play", "PlayAnalysis", "GameRecord",
    "analyse_bidding", "BidAnalysis",
]
