"""Bots by name, as the `klaverjas arena` command line writes them: `random`, `rule`, `dd`,
`pimc:N` (N worlds a move), `policy:PATH` (a model file written by
`examples/train_policy.py`) and `openspiel:ismcts` (OpenSpiel's IS-MCTS, where OpenSpiel is
installed).

>>> make_bot("pimc:16").name
'pimc:16'
>>> make_bot("bogus")
Traceback (most recent call last):
...
solver.errors.BotError: unknown bot 'bogus': use random, rule, dd, pimc:N, policy:PATH or openspiel:ismcts
"""
from __future__ import annotations

import copy
import importlib
from typing import Union

from ..analysis.worlds import MOST_WORLDS
from ..bots import Bot, DDBot, PIMCBot, RandomBot, RuleBot
from ..errors import BotError, SolverError, quote, whole_number

BOT_NAMES = ("random", "rule", "dd", "pimc:N", "policy:PATH", "openspiel:ismcts")

# A bot name or a Bot to copy for each seat.
BotLike = Union[str, Bot]


def make_bot(name: BotLike) -> Bot:
    """A new bot for `name` (one of BOT_NAMES), or a copy of the Bot given, so that every
    seat has a bot of its own."""
    if isinstance(name, Bot):
        return copy.deepcopy(name)
    if not isinstance(name, str):
        raise BotError(f"a bot must be a Bot or a bot name ({', '.join(BOT_NAMES)}), got "
                       f"{quote(name)}")
    kind, _, rest = name.partition(":")
    if kind in ("random", "rule", "dd") and not rest:
        return {"random": RandomBot, "rule": RuleBot, "dd": DDBot}[kind]()
    if kind == "pimc":
        try:
            worlds = whole_number(f"the worlds of {name}", int(rest) if rest.isdigit() else rest,
                                  1, MOST_WORLDS, error=BotError)
        except BotError as err:
            raise BotError(f"{err} (pimc:32, say)") from None
        return PIMCBot(worlds=worlds)
    if kind == "policy" and rest:
        from ..bots.policy import PolicyBot     # loads NumPy only when asked for
        return PolicyBot.load(rest)
    if name == "openspiel:ismcts":
        return _openspiel_ismcts()
    raise BotError(f"unknown bot {quote(name)}: use {', '.join(BOT_NAMES[:-1])} or {BOT_NAMES[-1]}")


def _openspiel_ismcts() -> Bot:
    try:
        bots = importlib.import_module("solver.openspiel.bots")
    except ImportError as err:
        raise BotError(f"openspiel:ismcts needs OpenSpiel: python -m pip install "
                       f"'klaverjas-solver[bots]' ({err})") from None
    try:
        bot = bots.ISMCTSBot()
    except SolverError:
        raise
    except Exception as err:
        raise BotError(f"openspiel:ismcts could not be set up: {err}") from None
    if not isinstance(bot, Bot):
        raise BotError("openspiel:ismcts: solver.openspiel.bots.ISMCTSBot is not a Bot")
    return bot
