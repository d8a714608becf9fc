"""Bots by name, as the `klaverjas arena` command line writes them: `random`, `rule`, `dd`,
`pimc:N` (N worlds a move; `pimc:N@S`: at most N worlds in S seconds a move; `pimc:N~M`: at
most N worlds, fewer once the choice is clear to within M points), `policy:PATH`
(a model file written by `examples/train_policy.py`) and `openspiel:ismcts` or `openspiel:ismcts:N` (OpenSpiel's
IS-MCTS with N simulations a card, default 100, where OpenSpiel is installed:
`solver.openspiel.bots.ismcts_bot`).

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
from ..errors import BotError, quote, whole_number

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
        return _pimc(name, rest)
    if kind == "policy" and rest:
        from ..bots.policy import PolicyBot     # loads NumPy only when asked for
        return PolicyBot.load(rest)
    if name == "openspiel:ismcts" or name.startswith("openspiel:ismcts:"):
        return _openspiel_ismcts(name)
    raise BotError(f"unknown bot {quote(name)}: use {', '.join(BOT_NAMES[:-1])} or {BOT_NAMES[-1]}")


def _pimc(name: str, rest: str) -> Bot:
    """pimc:N, pimc:N@S for at most N worlds in S seconds a move, and either with ~M for
    fewer worlds once the choice is clear to within M points."""
    rest, tilde, points = rest.partition("~")
    margin = _number(name, points, "the margin", "points", "pimc:32~5") if tilde else None
    worlds, at, seconds = rest.partition("@")
    try:
        count = whole_number(f"the worlds of {name}", int(worlds) if worlds.isdigit() else worlds,
                             1, MOST_WORLDS, error=BotError)
    except BotError as err:
        raise BotError(f"{err} (pimc:32, or pimc:64@0.5 for at most 0.5 s a move)") from None
    budget = _number(name, seconds, "the time budget", "seconds", "pimc:64@0.5") if at else None
    return PIMCBot(worlds=count, time_budget=budget, margin=margin)


def _number(name: str, text: str, what: str, unit: str, example: str) -> float:
    try:
        number = float(text)
    except ValueError:
        number = -1.0
    if not 0 < number < float("inf"):
        raise BotError(f"{what} of {name} must be a number of {unit} above 0, got "
                       f"{quote(text)} ({example}, say)")
    return number


def _openspiel_ismcts(name: str) -> Bot:
    simulations = name[len("openspiel:ismcts:"):] if name.count(":") == 2 else "100"
    count = whole_number(f"the simulations of {name}",
                         int(simulations) if simulations.isdigit() else simulations, 1,
                         1_000_000, error=BotError)
    try:
        bots = importlib.import_module("solver.openspiel.bots")
    except ImportError as err:
        raise BotError(f"{name} needs OpenSpiel: python -m pip install "
                       f"'klaverjas-solver[bots]' ({err})") from None
    bot: Bot = bots.ismcts_bot(simulations=count)
    return bot
