"""Reading and writing game records: a JSON object checked against the record schema, JSON
text, JSON Lines, files, and the deal a complete play shows."""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence,
                    Tuple, Type, TypeVar, Union)

from .cards import Card, Seat, Suit, Team, check_notation, parse_cards
from .deal import Deal
from ..errors import RecordError, SolverError, quote, shorten, whole_number
from .game import winning_index
from .json_text import load_json
from .record_schema import RECORD_FORMAT
from .rules import load_rules

if TYPE_CHECKING:
    from jsonschema import ValidationError

    from .record import GameRecord

Parsed = TypeVar("Parsed")
# GameRecord itself, or a subclass: the reader makes what it is handed.
Record = TypeVar("Record", bound="GameRecord")
# The fields of a record's JSON object (docs/record-format.md).
FIELDS = ("format", "deal", "dealer", "trump", "leader", "playing", "rules", "played",
          "chooser_leads", "notation", "bidder", "dummy", "players")


def played_cards(cards: Any, notation: str = "en") -> Tuple[Card, ...]:
    """The record's "played": a list of cards or their text, in `notation`."""
    return tuple(parse_cards(cards, notation))


def deal_from_play(played: Sequence[Card], leader: Seat, trump: Optional[Suit]) -> Deal:
    """The deal a complete play shows: each card belongs to the seat that played it, and the
    seats follow from the leader of trick 1 and the winner of each trick.

    >>> from solver import GameRecord
    >>> record = GameRecord.load("examples/game.json")
    >>> deal_from_play(record.played, record.leader, record.trump) == record.deal
    True
    """
    if len(played) != 32:
        raise RecordError(f"the deal follows from the play only when all 32 cards are played; "
                          f"{len(played)} are")
    seen: Dict[Card, int] = {}
    for number, card in enumerate(played, start=1):
        if card in seen:
            raise RecordError(f"card {number} ({card}) was already played as card {seen[card]}: "
                              f"each card is played once")
        seen[card] = number
    hands: List[List[Card]] = [[] for _ in Seat]
    for start in range(0, 32, 4):
        trick = list(played[start:start + 4])
        for offset, card in enumerate(trick):
            hands[(leader + offset) % 4].append(card)
        leader = Seat((leader + winning_index(trick, trump)) % 4)
    return Deal(hands)


def record_schema() -> Dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a record, as the package ships it."""
    schema: Dict[str, Any] = json.loads(_schema_text())
    return schema


def read_record(make: Callable[..., Record], data: Any, notation: str = "en") -> Record:
    """`make(**fields)` from a record's JSON object: its format checked, then the schema, then
    each field read in the game's words; RecordError names a missing or malformed field."""
    if not isinstance(data, dict):
        raise RecordError(f"a game record is a JSON object, got {quote(data)}")
    _check_format(data)
    error = _schema_error(data if "notation" in data else {**data, "notation": notation})
    if error is None:
        return _read_fields(make, data, notation)
    # The reader names what is wrong in the game's words (an unknown suit, a hand of 7
    # cards); the schema's own message is the fallback for a shape only it refuses.
    _read_fields(make, data, notation)
    raise _schema_record_error(error)


def records_from_json_lines(make: Callable[..., Record], text: Any,
                            notation: str = "en") -> List[Record]:
    """The records of JSON Lines text, one a line (blank lines skipped); a RecordError names
    the line of a bad record."""
    if not isinstance(text, str):
        raise RecordError(f"JSON Lines of game records must be text, got {quote(text)}")
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(read_record(make, load_json(line, "game record", RecordError),
                                       notation))
        except RecordError as err:
            raise RecordError(f"line {number}: {err}") from None
    return records


def write_json_lines(records: Iterable["GameRecord"], path: Union[str, Path]) -> None:
    """Records to a JSON Lines file, one `to_dict()` a line."""
    Path(path).write_text("".join(json.dumps(r.to_dict()) + "\n" for r in records))


def read_text(path: Union[str, Path]) -> str:
    """The UTF-8 text of the file `path` (a byte order mark dropped); RecordError says why a
    file cannot be read."""
    if not isinstance(path, (str, Path)):
        raise RecordError(f"a game record file is named by a str or Path, got {quote(path)}")
    try:
        return Path(path).read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise RecordError(f"cannot read {quote(str(path))}: not UTF-8 text (byte "
                          f"0x{err.object[err.start]:02x} at offset {err.start})") from None
    except (OSError, ValueError) as err:   # ValueError: a NUL in the name
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise RecordError(f"cannot read {quote(str(path))}: {reason}") from None


def _read_fields(make: Callable[..., Record], data: Dict[str, Any], notation: str) -> Record:
    unknown = sorted((str(k) for k in data if k not in FIELDS))
    if unknown:
        raise RecordError(f"unknown field {quote(unknown[0])} in game record; the fields are "
                          f"{', '.join(sorted(FIELDS))}")

    def need(name: str) -> Any:
        if data.get(name) is None:
            raise RecordError(f"game record has no {name!r} field")
        return data[name]

    def parsed(name: str, parse: Callable[[Any], Parsed], value: Any) -> Parsed:
        try:
            return parse(value)
        except SolverError as err:
            raise RecordError(f"game record field {name!r}: {err}") from None

    notation = parsed("notation", check_notation, data.get("notation", notation))
    dealer = parsed("dealer", Seat.parse, data["dealer"]) if data.get("dealer") is not None else None
    if data.get("leader") is not None:
        leader = parsed("leader", Seat.parse, data["leader"])
    elif dealer is not None:
        leader = dealer.left
    else:
        raise RecordError("game record needs a 'leader' (or a 'dealer': left of it leads)")
    rules = parsed("rules", load_rules, data.get("rules", "amsterdam"))
    # A ledig round: its bidder names the playing team, and it may have no trump.
    ledig = rules.contract == "ledig"
    bidder = parsed("bidder", Seat.parse, data["bidder"]) if data.get("bidder") is not None else None
    trump = (None if ledig and data.get("trump") is None else
             parsed("trump", lambda text: Suit.parse(text, notation), need("trump")))
    played = data.get("played", [])
    if not isinstance(played, (str, list)):
        raise RecordError(f"game record field 'played' must be a list of cards or a "
                          f"string, got {quote(played)}")
    cards = parsed("played", lambda text: played_cards(text, notation), played)
    if data.get("deal") is not None:
        deal = parsed("deal", lambda text: Deal.from_pbn(text, notation), data["deal"])
    elif len(cards) == 32:
        deal = parsed("played", lambda _: deal_from_play(cards, leader, trump), cards)
    else:
        raise RecordError(f"game record has no 'deal' field: it may be left out only when "
                          f"'played' holds all 32 cards (the deal then follows from who "
                          f"played what), and it holds {len(cards)}")
    playing = (None if ledig and data.get("playing") is None else
               parsed("playing", Team.parse, need("playing")))
    return make(deal=deal, trump=trump, leader=leader, playing=playing, rules=rules,
                played=cards, dealer=dealer, chooser_leads=data.get("chooser_leads", False),
                bidder=bidder,
                dummy=parsed("dummy", Seat.parse, data["dummy"]) if data.get("dummy") is not None else None,
                players=data.get("players"))


def _check_format(data: Dict[str, Any]) -> None:
    """A record of a later format is refused before anything else: its fields may mean what
    this version cannot know."""
    version = whole_number("game record field 'format'", data.get("format", RECORD_FORMAT),
                           least=1, error=RecordError)
    if version > RECORD_FORMAT:
        raise RecordError(f"game record field 'format': format {version} is newer than this "
                          f"version of klaverjas-solver reads (format {RECORD_FORMAT} and "
                          f"earlier); upgrade the package to read it")


@lru_cache(maxsize=1)
def _schema_text() -> str:
    return resources.files(__package__).joinpath("record.schema.json").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _validator() -> Any:
    # Imported here: jsonschema takes longer to import than the rest of the model together.
    from jsonschema import Draft202012Validator, validators

    def is_integer(checker: Any, instance: Any) -> bool:
        # A record built in Python may hold NumPy integers, which the model reads as numbers;
        # nothing read from JSON is one, so JSON keeps the standard meaning.
        return Draft202012Validator.TYPE_CHECKER.is_type(instance, "integer") or (
            not isinstance(instance, (bool, float, str)) and hasattr(type(instance), "__index__"))

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", is_integer)
    # jsonschema's `extend` has no annotations; what it makes is a Draft202012Validator class.
    extended: Type[Draft202012Validator] = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, type_checker=checker)
    return extended(record_schema())


def _schema_error(data: Dict[str, Any]) -> Optional["ValidationError"]:
    """The schema's most relevant complaint about `data`, or None when it fits."""
    from jsonschema.exceptions import best_match
    error: Optional[ValidationError] = best_match(_validator().iter_errors(data))
    return error


def _schema_record_error(error: "ValidationError") -> RecordError:
    """A schema complaint as a RecordError naming the field (and where inside it)."""
    path = [str(part) for part in error.absolute_path]
    if not path:
        return RecordError(f"game record: {shorten(error.message)}")
    inside = f"{'.'.join(path[1:])} " if len(path) > 1 else ""
    return RecordError(f"game record field {path[0]!r}: {inside}{quote(error.instance)} does "
                       f"not fit the record format ({shorten(error.message)})")
