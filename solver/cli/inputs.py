"""What the `klaverjas` command reads: deals, game records and rules, each given inline on the
command line, as a file, or as `-` for standard input."""
from __future__ import annotations

import dataclasses
import json
import os
import sys
from typing import Any, Callable, Dict, Optional, Union

from ..errors import RulesError, quote, shorten
from ..model.cards import Seat
from ..model.deal import Deal
from ..model.game import Game
from ..model.json_text import json_numbers_in_range
from ..model.record import GameRecord
from ..model.rules import RULE_PRESETS, Rules, load_rules
from .output import shown_path
from .parser import UsageError


def looks_like_a_deal(text: str) -> bool:
    return text[1:2] == ":" or text.count(".") >= 8


def looks_like_json(text: str) -> bool:
    return text.lstrip().startswith("{")


# Deals, records and rules are a few kilobytes: reading stops well before /dev/zero fills memory.
MOST_INPUT_BYTES = 4 << 20

# The byte order mark some editors put at the start of a UTF-8 file.
BOM = "\ufeff"


class NoSuchSource(UsageError):
    """`source` is neither an existing file nor written out on the command line."""


def read_text(source: str, inline: Callable[[str], bool]) -> str:
    """What `source` names: standard input for '-', an existing file (a pipe or FIFO too), or
    `source` itself when `inline(source)` says it is written out on the command line. Files and
    standard input are read as UTF-8, a leading byte order mark dropped."""
    if source == "-":
        return _decoded(_read_standard_input(), "standard input")
    try:
        os.stat(source)
    except (OSError, ValueError) as err:      # ValueError: a NUL byte in the name
        if inline(source):
            return source.removeprefix(BOM)
        if isinstance(err, FileNotFoundError):
            raise NoSuchSource(f"cannot read {shown(source)}: no such file") from None
        raise UsageError(f"cannot read {shown(source)}: {_reason(err)}") from None
    try:
        with open(source, "rb") as f:
            data = f.read(MOST_INPUT_BYTES + 1)
    except OSError as err:
        raise UsageError(f"cannot read {shown(source)}: {_reason(err)}") from None
    return _decoded(data, shown(source))


def shown(source: str) -> str:
    """A file name for a message: its non-UTF-8 bytes escaped, cut to a short line."""
    return shorten(shown_path(source))


def _read_standard_input() -> Union[bytes, str]:
    stream = sys.stdin
    if stream is None:
        raise UsageError("cannot read standard input: it is closed")
    try:
        # Bytes where there are any, so that the encoding is UTF-8 whatever the locale says.
        buffer = getattr(stream, "buffer", None)
        return (buffer or stream).read(MOST_INPUT_BYTES + 1)
    except (OSError, ValueError) as err:      # ValueError: read from a closed file
        raise UsageError(f"cannot read standard input: {_reason(err)}") from None


def _decoded(data: Union[bytes, str], where: str) -> str:
    if len(data) > MOST_INPUT_BYTES:
        raise UsageError(f"cannot read {where}: longer than {MOST_INPUT_BYTES >> 20} MB, which no "
                         f"deal, record or rules file is")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise UsageError(f"cannot read {where}: not UTF-8 text (byte 0x{data[err.start]:02x} "
                             f"at offset {err.start})") from None
    return data.removeprefix(BOM)


def _reason(err: Exception) -> str:
    """Why a file could not be read, in the words of the command line."""
    if isinstance(err, IsADirectoryError):
        return "is a directory"
    if isinstance(err, PermissionError):
        return "permission denied"
    if isinstance(err, FileNotFoundError):
        return "no such file"
    if isinstance(err, OSError) and err.strerror:
        return err.strerror[:1].lower() + err.strerror[1:]
    return "not a file name" if isinstance(err, ValueError) and "null" in str(err) else str(err)


def read_deal(source: str, notation: str = "en") -> Deal:
    return Deal.from_pbn(read_text(source, looks_like_a_deal).strip(), notation)


def read_record(source: str, rules: Optional[str] = None, notation: str = "en",
                dummy: Optional[Seat] = None) -> GameRecord:
    """The record `source` names, with the `rules` given (see `read_rules`) and the `dummy`
    seat in place of its own; `notation` is its card notation when it names none."""
    text = read_text(source, looks_like_json)
    json_numbers_in_range(text, "game record")
    record = GameRecord.from_json(text, notation)
    return with_overrides(record, read_rules(rules) if rules else None, dummy)


def with_overrides(record: GameRecord, rules: Optional[Rules],
                   dummy: Optional[Seat]) -> GameRecord:
    """`record` with the command line's --rules and --dummy in place of its own; a dummy the
    new rules have no place for is dropped (players=3 is the only table with one)."""
    changes: Dict[str, Any] = {}
    if rules is not None:
        changes["rules"] = rules
        if rules.players != 3 and dummy is None:
            changes["dummy"] = None
    if dummy is not None:
        changes["dummy"] = dummy
    return dataclasses.replace(record, **changes) if changes else record


def read_rules(value: str) -> Rules:
    """A preset name, inline JSON of options, or a JSON file of them."""
    if value.lower() in RULE_PRESETS:
        return load_rules(value)
    try:
        text = read_text(value, looks_like_json)
    except NoSuchSource:
        raise RulesError(f"--rules {quote(value)}: not amsterdam, rotterdam, inline JSON or a "
                         f"readable JSON file") from None
    except UsageError as err:
        raise RulesError(f"--rules: {err}") from None
    json_numbers_in_range(text, f"--rules {quote(value, 40)}")
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
                read_rules(args.rules), dummy=args.dummy)
    game.replay(args.played)
    return game
