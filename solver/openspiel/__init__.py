"""Klaverjas in OpenSpiel: the game "klaverjas", registered on import.

>>> import pyspiel
>>> import solver.openspiel
>>> game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart"})
>>> game.num_players(), game.num_distinct_actions(), game.information_state_tensor_size()
(4, 34, 720)

Needs the `bots` extra (`pip install "klaverjas-solver[bots]"`), which brings open_spiel.
"""
try:
    import pyspiel  # noqa: F401
except ImportError as err:     # open_spiel is an optional dependency
    raise ModuleNotFoundError("solver.openspiel needs OpenSpiel: pip install \"klaverjas-solver[bots]\" "
                      "(or pip install open_spiel)") from err

from .game import (BIDDINGS, DEFAULTS, NAME, NUM_ACTIONS, PASS, PLAY, KlaverjasGame,
                   KlaverjasObserver, KlaverjasState, parse_rules, register, rules_text,
                   utility_bound)

register()

from .bots import (ISMCTSBot, OpenSpielBot, PyspielBot, ismcts_bot, load_game,  # noqa: E402
                   plays_turned, state_from_game)

__all__ = ["ISMCTSBot", "OpenSpielBot", "PyspielBot", "ismcts_bot", "load_game", "plays_turned",
           "state_from_game", "NAME", "BIDDINGS", "DEFAULTS", "NUM_ACTIONS", "PASS", "PLAY", "KlaverjasGame",
           "KlaverjasState", "KlaverjasObserver", "parse_rules", "register", "rules_text", "utility_bound"]
