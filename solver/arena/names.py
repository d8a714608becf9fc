"""Bots by name, as the `klaverjas arena` command line writes them: `random`, `rule`, `dd`,
`pimc:N` (N worlds a move; `pimc:N@S`: at most N worlds in S seconds a move; `pimc:N~M`: at
most N worlds, fewer once the choice is clear to within M points; any of them with `+play`,
`pimc:32+play`: the worlds drawn in proportion to how likely the other players' cards so far
were in each, `solver.analysis.beliefs`), `alphamu:M:W` (αμ search over W worlds, M of its
own moves ahead in the last tricks: `solver.bots.alphamu`), `learned` (the card
network shipped in the package, played with NumPy), `learned:PATH` (a network file written by
`klaverjas train`), `policy:PATH` (a model file of `examples/train_policy.py`, one hidden
layer), `openspiel:ismcts` or
`openspiel:ismcts:N` (OpenSpiel's IS-MCTS with N simulations a card, default 100, where
OpenSpiel is installed: `solver.openspiel.bots.ismcts_bot`), and `module:Class`, a Bot class
of one's own, made with no arguments (`mybots:HighestCard`; the module must be importable:
installed, or on PYTHONPATH).

>>> make_bot("pimc:16").name
'pimc:16'
>>> make_bot("solver.bots:RuleBot").name
'rule'
>>> make_bot("bogus")
Traceback (most recent call last):
...
solver.errors.BotError: unknown bot 'bogus': use random, rule, dd, pimc:N, alphamu:M:W, learned, learned:PATH, policy:PATH, openspiel:ismcts or module:Class
"""
from __future__ import annotations

import copy
import importlib
import re
from typing import Union

from ..model.worlds import BELIEFS, MOST_WORLDS
from ..bots import Bot, DDBot, PIMCBot, RandomBot, RuleBot
from ..bots.alphamu import MOST_MOVES, AlphaMuBot
from ..errors import BotError, quote, whole_number

BOT_NAMES = ("random", "rule", "dd", "pimc:N", "alphamu:M:W", "learned", "learned:PATH",
             "policy:PATH", "openspiel:ismcts", "module:Class")

# A bot name or a Bot to copy for each seat.
BotLike = Union[str, Bot]

_PLAIN = {"random": RandomBot, "rule": RuleBot, "dd": DDBot}
_ISMCTS = "openspiel:ismcts"
# Words the names above begin with: never read as a module of one's own.
_RESERVED = {*_PLAIN, "pimc", "alphamu", "learned", "policy", "openspiel"}
# A number as the names write it: 0.5, 2, 1e-3 (ASCII digits, no sign, space or underscore).
_PLAIN_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
# module:Class, the module a dotted Python name: what `import module` could find.
_MODULE_CLASS = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Za-z_]\w*)", re.ASCII)


def make_bot(name: BotLike) -> Bot:
    """A new bot for `name` (one of BOT_NAMES), or a copy of the Bot given, so that every
    seat has a bot of its own."""
    if isinstance(name, Bot):
        return copy.deepcopy(name)
    if not isinstance(name, str):
        raise BotError(f"a bot must be a Bot or a bot name ({', '.join(BOT_NAMES)}), got "
                       f"{quote(name)}")
    kind, _, rest = name.partition(":")
    if name in _PLAIN:
        return _PLAIN[name]()
    if kind == "pimc":
        return _pimc(name, rest)
    if kind == "learned":
        from ..bots.learned import LearnedBot   # loads the network only when asked for
        if name == "learned":
            return LearnedBot()
        if rest:
            return LearnedBot.load(rest)
    if kind == "alphamu":
        return _alphamu(name, rest)
    if kind == "policy" and rest:
        from ..bots.policy import PolicyBot     # loads NumPy only when asked for
        return PolicyBot.load(rest)
    if name == _ISMCTS or name.startswith(_ISMCTS + ":"):
        return _openspiel_ismcts(name)
    if kind not in _RESERVED and _MODULE_CLASS.fullmatch(name):
        return _own_bot(name)
    raise BotError(f"unknown bot {quote(name)}: use {', '.join(BOT_NAMES[:-1])} or {BOT_NAMES[-1]}")


def _count(name: str, what: str, text: str, most: int) -> int:
    """The whole number `text` (ASCII digits only: `int` refuses "²", which isdigit takes)."""
    return whole_number(f"{what} of {name}", int(text) if re.fullmatch(r"[0-9]+", text) else text,
                        1, most, error=BotError)


def _pimc(name: str, rest: str) -> Bot:
    """pimc:N, pimc:N@S for at most N worlds in S seconds a move, and either with ~M for
    fewer worlds once the choice is clear to within M points; each with +BELIEF (+play)."""
    rest, plus, belief = rest.partition("+")
    if plus and belief not in BELIEFS:
        raise BotError(f"the belief of {name} must be one of {', '.join(BELIEFS)}, got "
                       f"{quote(belief)} (pimc:32+play, say)")
    rest, tilde, points = rest.partition("~")
    margin = _number(name, points, "the margin", "points", "pimc:32~5") if tilde else None
    worlds, at, seconds = rest.partition("@")
    try:
        count = _count(name, "the worlds", worlds, MOST_WORLDS)
    except BotError as err:
        raise BotError(f"{err} (pimc:32, or pimc:64@0.5 for at most 0.5 s a move)") from None
    budget = _number(name, seconds, "the time budget", "seconds", "pimc:64@0.5") if at else None
    return PIMCBot(worlds=count, time_budget=budget, margin=margin,
                   belief=belief if plus else "uniform")


def _alphamu(name: str, rest: str) -> Bot:
    """alphamu:M:W, M own moves searched ahead over W worlds."""
    moves, colon, worlds = rest.partition(":")
    try:
        if not colon:
            raise BotError(f"{name} must say its own moves and worlds, alphamu:M:W")
        return AlphaMuBot(max_moves=_count(name, "the own moves", moves, MOST_MOVES),
                          worlds=_count(name, "the worlds", worlds, MOST_WORLDS))
    except BotError as err:
        raise BotError(f"{err} (alphamu:2:16, say)") from None


def _number(name: str, text: str, what: str, unit: str, example: str) -> float:
    """The number `text`, written plainly (float() would also take " 1", "1_0" and "٣")."""
    number = float(text) if _PLAIN_NUMBER.fullmatch(text) else -1.0
    if not 0 < number < float("inf"):
        raise BotError(f"{what} of {name} must be a number of {unit} above 0, got "
                       f"{quote(text)} ({example}, say)")
    return number


def _openspiel_ismcts(name: str) -> Bot:
    """openspiel:ismcts, or openspiel:ismcts:N for N simulations a card."""
    simulations = name[len(_ISMCTS) + 1:] if name != _ISMCTS else "100"
    count = _count(name, "the simulations", simulations, 1_000_000)
    try:
        bots = importlib.import_module("solver.openspiel.bots")
    except ImportError as err:
        raise BotError(f"{name} needs OpenSpiel: python -m pip install "
                       f"'klaverjas-solver[bots]' ({err})") from None
    bot: Bot = bots.ismcts_bot(simulations=count)
    return bot


def _own_bot(name: str) -> Bot:
    """module:Class: the Bot subclass `Class` of `module`, made with no arguments."""
    module_name, _, class_name = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is not None and (module_name + ".").startswith(err.name + "."):
            raise BotError(f"bot {quote(name)}: no module named {quote(err.name)} (is its "
                           f"folder on PYTHONPATH? PYTHONPATH=. klaverjas arena ...)") from None
        raise BotError(f"bot {quote(name)}: importing {module_name} failed: {err}") from None
    except Exception as err:    # the module's own code failed: name it, not a traceback
        raise BotError(f"bot {quote(name)}: importing {module_name} failed: "
                       f"{type(err).__name__}: {err}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise BotError(f"bot {quote(name)}: module {module_name} has no {class_name}")
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise BotError(f"bot {quote(name)}: {class_name} is not a Bot class (a subclass of "
                       f"solver.bots.Bot), it is {quote(cls)}")
    try:
        bot = cls()
    except Exception as err:
        raise BotError(f"bot {quote(name)}: {class_name}() failed: "
                       f"{type(err).__name__}: {err}") from None
    return bot
