"""Klaverjas as a PettingZoo AEC environment: `env(rules=..., bidding=...)`.

>>> from solver.pettingzoo import env
>>> table = env(bidding="draaikaart")
>>> table.reset(seed=3)
>>> table.possible_agents
['N', 'E', 'S', 'W']

Needs the `bots` extra (`pip install "klaverjas-solver[bots]"`): PettingZoo and OpenSpiel.
"""
try:
    import pettingzoo  # noqa: F401
    import pyspiel  # noqa: F401
except ImportError as err:     # both are optional dependencies
    raise ModuleNotFoundError("solver.pettingzoo needs PettingZoo and OpenSpiel: pip install "
                      "\"klaverjas-solver[bots]\"") from err

from .environment import AGENTS, KlaverjasEnv, env, raw_env

__all__ = ["env", "raw_env", "KlaverjasEnv", "AGENTS"]
