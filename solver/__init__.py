"""klaverjas-solver: an exact double-dummy solver for Klaverjas.

>>> from solver import Deal, Game, Rules
>>> game = Game(Deal.random(1), trump="H", leader="E", playing="NS", rules=Rules.amsterdam())
"""
from .cards import Card, Rank, Seat, Suit, Team, parse_cards
from .deal import Deal
from .errors import DealError, IllegalPlayError, RulesError
from .game import Game, Trick
from .rules import Rules
from .scoring import Tally
from .search import SolveResult, Solver, solve, solve_moves

__all__ = [
    "Card", "Rank", "Seat", "Suit", "Team", "parse_cards",
    "Deal", "DealError", "IllegalPlayError", "RulesError",
    "Game", "Trick", "Rules", "Tally",
    "Solver", "SolveResult", "solve", "solve_moves",
]
