"""What the `klaverjas` command reads: deals, game records and rules, each given inline on the
command line, as a file, or as `-` for standard input."""
from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Callable, Optional

from ..errors import RulesError, quote, shorten
from ..model.deal import Deal
from ..model.game import Game
from ..model.record import GameRecord
from ..model.rules import RULE_PRESETS, Rules, load_rules
from .parser import UsageError


def looks_like_a_deal(text: str) -> bool:
    return text[1:2] == ":" or text.count(".") >= 8


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def read_text(source: str, inline: Callable[[str], bool]) -> str:
    """What `source` names: standard input for '-', an existing file, or `source` itself when
    `inline(source)` says it is written out on the command line."""
    if source == "-":
        return sys.stdin.read()
    try:
        is_file = Path(source).is_file()
    except (OSError, ValueError):      # a name too long, or with a NUL byte
        is_file = False
    if is_file:
        try:
            return Path(source).read_text()
        except (OSError, UnicodeDecodeError) as err:
            raise UsageError(f"cannot read {shorten(source)}: {err}") from None
    if inline(source):
        return source
    raise UsageError(f"cannot read {shorten(source)}: no such file")


def read_deal(source: str, notation: str = "en") -> Deal:
    return Deal.from_pbn(read_text(source, looks_like_a_deal).strip(), notation)


def read_record(source: str, rules: Optional[str] = None, notation: str = "en") -> GameRecord:
    """The record `source` names, with the `rules` given (see `read_rules`) in place of its own;
    `notation` is its card notation when it names none."""
    record = GameRecord.from_json(read_text(source, looks_like_json), notation)
    if rules:
        record = dataclasses.replace(record, rules=read_rules(rules))
    return record


def read_rules(value: str) -> Rules:
    """A preset name, inline JSON of options, or a JSON file of them."""
    if value.lower() in RULE_PRESETS:
        return load_rules(value)
    try:
        text = read_text(value, looks_like_json)
    except UsageError:
        raise RulesError(f"--rules {quote(value)}: not amsterdam, rotterdam, inline JSON or a "
                         f"readable JSON file") from None
    try:
        return load_rules(json.loads(text))
    except json.JSONDecodeError as err:
        raise RulesError(f"--rules {quote(value)}: not valid JSON: {err}") from None
    except RecursionError:
        raise RulesError(f"--rules {quote(value)}: nested too deeply") from None


def read_position(args) -> Game:
    """The position `args` give: the deal and rules, trump, leader and playing team, and the
    cards played so far (IllegalPlayError names an illegal one)."""
    game = Game(read_deal(args.deal, args.notation), args.trump, args.leader, args.playing,
                read_rules(args.rules))
    game.replay(args.played)
    return game
