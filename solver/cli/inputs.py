"""What the `klaverjas` command reads: deals, game records and rules, each given inline on the
command line, as a file, or as `-` for standard input."""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any, Callable, Collection, Dict, FrozenSet, Optional, Tuple, Union

from ..errors import IllegalPlayError, RecordError, RulesError, quote, shorten
from ..model.cards import Seat
from ..model.deal import Deal
from ..model.game import Game
from ..model.json_text import json_numbers_in_range
from ..model.record import GameRecord
from ..model.rules import RULE_PRESETS, Rules, load_rules
from .output import named
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
    """A file name for a message: its non-UTF-8 bytes escaped, cut to a short line, its signs
    kept on any stream (`output.named`)."""
    return named(source)


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


def read_record(source: str, notation: Optional[str] = None, round_number: Optional[int] = None,
                command: str = "report", dummy: Optional[Seat] = None) -> Tuple[GameRecord, str]:
    """The record `source` names, and the card notation to print it in: `notation` (--notation)
    when given, which is also the record's when it names none; else the record's own ("en"
    when it names none).

    A JSON Lines file of several records needs `round_number` (--round, 1 for the first
    line): `command` takes one round, and is named in the error that says so. `dummy`
    (--dummy) is the dummy of a three-player record that names none."""
    return record_in(read_text(source, looks_like_json), source, notation, round_number, command,
                     dummy)


def record_in(text: str, source: str, notation: Optional[str] = None,
              round_number: Optional[int] = None, command: str = "report",
              dummy: Optional[Seat] = None, any_dummy: bool = False) -> Tuple[GameRecord, str]:
    """`read_record` of the `text` read from `source`; with `any_dummy`, a three-player
    record that names no dummy takes the first seat that fits (for what the dummy's seat
    does not change)."""
    json_numbers_in_range(text, "game record")
    reading = notation or "en"
    try:
        record = _one_record(text, reading, dummy, any_dummy)
        lines = [text]
    except RecordError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2 or not all(looks_like_json(line) for line in lines):
            raise
        if round_number is None:
            raise UsageError(f"{shown(source)} holds {len(lines)} rounds, one a line (JSON "
                             f"Lines); {command} takes one round: pick it with --round N, from "
                             f"1 to {len(lines)}") from None
    if round_number is not None:
        if round_number > len(lines):
            raise UsageError(f"--round {round_number}: {shown(source)} holds "
                             f"{len(lines)} round{'s' if len(lines) != 1 else ''}")
        if len(lines) > 1:
            try:
                record = _one_record(lines[round_number - 1], reading, dummy, any_dummy)
            except RecordError as err:
                raise RecordError(f"{shown(source)}, round {round_number}: {err}") from None
    return record, notation or _own_notation(lines[(round_number or 1) - 1])


def _one_record(text: str, notation: str, dummy: Optional[Seat],
                any_dummy: bool = False) -> GameRecord:
    """The record of one round's JSON `text`. One that names no dummy but is read with one (a
    three-player round) takes `dummy` (--dummy), or with `any_dummy` the first seat that
    fits, or is refused naming --dummy."""
    try:
        return GameRecord.from_json(text, notation)
    except RecordError as refused:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict) or data.get("dummy") is not None:
            raise refused
        if dummy is None:
            # Refused for want of a dummy when a seat of either team would do.
            for seat in (Seat.N, Seat.E):
                try:
                    record = GameRecord.from_dict({**data, "dummy": seat.name}, notation)
                except RecordError:
                    continue
                if any_dummy:
                    return record
                raise UsageError("this record is a round of three players (players=3) and names "
                                 "no dummy: give the dummy's seat with --dummy (N, E, S or W, a "
                                 "seat of the playing team)") from None
            raise refused
        try:
            return GameRecord.from_dict({**data, "dummy": dummy.name}, notation)
        except RecordError as err:
            raise UsageError(f"argument --dummy: {dummy.name} does not fit this record: "
                             f"{str(err).replace('game record: ', '', 1)}") from None


def _own_notation(text: str) -> str:
    """The card notation a record's JSON names, "en" when it names none (the record is read:
    its notation is one of NOTATIONS)."""
    data = json.loads(text)
    return data.get("notation", "en") if isinstance(data, dict) else "en"


def read_rules(value: str) -> Rules:
    """A preset name, inline JSON of options, or a JSON file of them."""
    return read_rules_and_names(value)[0]


def read_rules_and_names(value: str) -> Tuple[Rules, FrozenSet[str]]:
    """read_rules, and the options `value` names: a JSON's keys (a preset names none of the
    game's options, only house rules)."""
    if value.lower() in RULE_PRESETS:
        return load_rules(value), frozenset()
    try:
        text = read_text(value, looks_like_json)
    except NoSuchSource:
        raise RulesError(f"--rules {quote(value)}: not amsterdam, rotterdam, inline JSON or a "
                         f"readable JSON file") from None
    except UsageError as err:
        raise RulesError(f"--rules: {err}") from None
    json_numbers_in_range(text, f"--rules {quote(value, 40)}")
    try:
        options = json.loads(text)
        return load_rules(options), frozenset(options if isinstance(options, dict) else ())
    except json.JSONDecodeError as err:
        raise RulesError(f"--rules {quote(value)}: not valid JSON: {err}") from None
    except RecursionError:
        raise RulesError(f"--rules {quote(value)}: nested too deeply") from None


def read_deal_or_record(args: argparse.Namespace) -> Tuple[Deal, Optional[GameRecord]]:
    """The deal `args.deal` names, or the game record it names with the record (the round of
    --round in a file of several)."""
    text = read_text(args.deal, lambda t: looks_like_a_deal(t) or looks_like_json(t))
    if looks_like_json(text):
        # table takes no --dummy: a team's values are the same whichever hand is the dummy.
        record, _ = record_in(text, args.deal, args.notation, args.round, args.command,
                              getattr(args, "dummy", None), any_dummy=args.command == "table")
        return record.deal, record
    if args.round is not None:
        raise UsageError(f"argument --round: picks a round from a file of game records, one a "
                         f"line; {shown(args.deal)} is a deal")
    return Deal.from_pbn(text.strip(), args.notation), None


def read_position(args: argparse.Namespace) -> Game:
    """The position `args` give: the deal and rules, trump, leader and playing team (ledig:
    the bidder), and the cards played so far (IllegalPlayError names an illegal one); or a
    record's, each unless given, after --after of its cards."""
    deal, record = read_deal_or_record(args)
    if record is not None:
        return _recorded_position(args, record)
    if args.after is not None:
        raise UsageError("argument --after: takes the first cards of a game record; with a "
                         "deal give the cards played with --played")
    rules = with_contract(args, read_rules("amsterdam" if args.rules is None else args.rules))
    if rules.players == 3 and args.dummy is None:
        raise UsageError("a table of three (players=3 in --rules) needs --dummy: the silent "
                         "partner's seat, N, E, S or W, a seat of the playing team")
    if args.leader is None:
        raise UsageError("the following arguments are required: --leader (the seat that led "
                         "trick 1), or a game record instead of the deal")
    if rules.contract == "ledig":
        check_ledig_seats(args, rules)
    else:
        needed = [("--trump", args.trump)]
        if getattr(args, "dummy", None) is None:    # else the dummy's team plays
            needed.append(("--playing", args.playing))
        missing = [option for option, value in needed if value is None]
        if missing:
            raise UsageError(f"the following arguments are required: {', '.join(missing)} "
                             f"(or --contract ledig with --bidder)")
    game = Game(deal, args.trump, args.leader, args.playing, rules, bidder=args.bidder,
                dummy=args.dummy)
    game.replay(args.played or [])
    return game


def _recorded_position(args: argparse.Namespace, record: GameRecord) -> Game:
    """read_position of a record: its round under --rules, --contract, --bidder, --dummy,
    --trump and --playing (record_with_overrides), after its first --after cards or the
    cards of --played."""
    if args.after is not None and args.played is not None:
        raise UsageError("--after and --played both say which cards were played: give one")
    after = args.after or 0
    if after > len(record.played):
        raise UsageError(f"argument --after: the record has {len(record.played)} cards played, "
                         f"not {after}")
    # The position takes the record's first cards alone: the rest need not fit the round as
    # the options change it.
    record = dataclasses.replace(record, played=record.played[:after])
    record = record_with_overrides(args, record, *record_rules(args))
    game = record.game()
    try:
        game.replay(record.played)
    except IllegalPlayError as err:
        raise UsageError(f"argument --after {after}: the record's own play breaks a rule by "
                         f"then, where no search can start: {err}") from None
    game.replay(args.played or [])
    return game


def with_contract(args: argparse.Namespace, rules: Rules) -> Rules:
    """`rules` under --contract, when given; --bidder is refused outside ledig."""
    contract = getattr(args, "contract", None)
    if contract is not None and contract != rules.contract:
        rules = dataclasses.replace(rules, contract=contract)
    bidder = getattr(args, "bidder", None)
    if bidder is not None and rules.contract != "ledig":
        raise UsageError(f"--bidder {bidder.name} is for a ledig round: add --contract ledig")
    return rules


def check_ledig_seats(args: argparse.Namespace, rules: Rules) -> None:
    """A ledig position's --bidder, --playing and --trump, each refused by name."""
    if args.bidder is None:
        raise UsageError("--contract ledig needs --bidder: the seat that bid ledig (N, E, S or W)")
    if args.playing is not None and args.playing != args.bidder.team:
        raise UsageError(f"--playing {args.playing.name} is not the team of --bidder "
                         f"{args.bidder.name}: in ledig the bidder's team plays (leave "
                         f"--playing out)")
    if args.trump is not None and rules.ledig_trump == "none":
        raise UsageError(f"--trump {args.trump.name}: ledig has no trump unless --rules sets "
                         f"ledig_trump to chosen ('{{\"ledig_trump\": \"chosen\"}}')")
    if args.trump is None and rules.ledig_trump == "chosen":
        raise UsageError("--trump is required: ledig under ledig_trump chosen has the round's "
                         "trump")


# What game a record is, rather than a house rule: --rules changes these only by name.
GAME_OPTIONS = ("contract", "ledig_trump", "ledig_bonus", "players", "dummy_open", "multiplier")


def record_rules(args: argparse.Namespace) -> Tuple[Optional[Rules], FrozenSet[str]]:
    """--rules over a record, and the options it names (None and none without it)."""
    return read_rules_and_names(args.rules) if args.rules is not None else (None, frozenset())


def rules_over_record(record: GameRecord, rules: Optional[Rules],
                      named: Collection[str] = ()) -> Rules:
    """The rules of --rules over a record's (the record's own without them): house rules
    that keep the record's game (GAME_OPTIONS: its contract, ledig's options, its table, its
    kraak multiplier) except for the options they name (`named`, from read_rules_and_names)."""
    if rules is None:
        return record.rules
    return dataclasses.replace(rules, **{name: getattr(record.rules, name)
                                         for name in GAME_OPTIONS if name not in named})


def record_with_overrides(args: argparse.Namespace, record: GameRecord,
                          rules: Optional[Rules] = None, named: Collection[str] = ()
                          ) -> GameRecord:
    """`record` under the `rules` of --rules (rules_over_record), and --contract, --bidder,
    --dummy, and where a command takes them --trump and --playing, when given: a trump round
    judged as ledig needs a bidder (and loses its trump, unless ledig_trump is chosen), a ledig
    round judged as a trump round a trump; a dummy the new rules have no place for is dropped
    (players=3 is the only table with one). A ledig round at a table of three stays one under
    `--rules rotterdam`."""
    contract = getattr(args, "contract", None)
    bidder = getattr(args, "bidder", None)
    dummy = getattr(args, "dummy", None)
    trump = getattr(args, "trump", None)        # solve and view: over the record's own
    playing = getattr(args, "playing", None)
    if rules is None and contract is None and bidder is None and dummy is None \
            and trump is None and playing is None:
        return record
    # The options that change the record's game, as the command line wrote them.
    asked = " ".join(option for option in (
        f"--rules {quote(getattr(args, 'rules', None), 40)}" if rules is not None else "",
        f"--contract {contract}" if contract is not None else "",
        f"--bidder {bidder.name}" if bidder is not None else "",
        f"--dummy {dummy.name}" if dummy is not None else "",
        f"--trump {trump.name}" if trump is not None else "",
        f"--playing {playing.name}" if playing is not None else "") if option)
    rules = with_contract(args, rules_over_record(record, rules, named))
    give_trump = " (--trump)" if hasattr(args, "trump") else ""     # analyse takes none
    changes: Dict[str, Any] = {"rules": rules}
    if dummy is not None:
        changes["dummy"] = dummy
    elif rules.players != 3:
        changes["dummy"] = None
    try:
        if rules.contract != "ledig":
            trump = trump if trump is not None else record.trump
            if trump is None:
                raise UsageError(f"{asked}: this record is a ledig round without trump; a "
                                 f"trump round needs a trump{give_trump} and a playing team")
            return dataclasses.replace(record, bidder=None, trump=trump,
                                       playing=playing if playing is not None
                                       else record.playing, **changes)
        bidder = bidder if bidder is not None else record.bidder
        if bidder is None:
            raise UsageError(f"{asked} needs --bidder: the record names no bidder")
        if playing is not None and playing != bidder.team:
            raise UsageError(f"{asked}: in ledig the bidder's team plays, and {playing.name} is "
                             f"not the team of the bidder, {bidder.name}")
        if rules.ledig_trump == "chosen":
            trump = trump if trump is not None else record.trump
            if trump is None:
                raise UsageError(f"{asked}: under ledig_trump chosen the round needs a trump, "
                                 f"and this record has none{give_trump}")
        elif getattr(args, "trump", None) is not None:
            raise UsageError(f"{asked}: a ledig round under ledig_trump none has no trump "
                             f"(ledig_trump chosen in --rules gives it one)")
        else:
            trump = None
        # playing None: the record takes the bidder's team.
        return dataclasses.replace(record, bidder=bidder, trump=trump,
                                   playing=None, **changes)  # type: ignore[arg-type]
    except RecordError as err:
        # The record was sound under its own rules: say which options it does not fit.
        raise RecordError(f"the record under {asked}: {err}") from None
