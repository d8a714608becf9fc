"""Game records: a recorded round in JSON, checked for play that cannot happen at a table."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional,
                    Sequence, Tuple, TypeVar, Union)

from .cards import ByTeam, Card, Seat, Suit, Team, check_notation, parse_cards
from .deal import Deal
from ..errors import (IllegalPlayError, RecordError, SolverError, quote, shorten,
                      whole_number)
from .game import Game, winning_index
from .json_text import load_json
from .players import MOST_NAME_CHARACTERS, Player, table_players
from .record_schema import RECORD_FORMAT
from .rules import Rules, load_rules
from .scoring import revoke_scores

if TYPE_CHECKING:
    from jsonschema import ValidationError

Parsed = TypeVar("Parsed")


def _played_cards(cards: Any, notation: str = "en") -> Tuple[Card, ...]:
    return tuple(parse_cards(cards, notation))


def deal_from_play(played: Sequence[Card], leader: Seat, trump: Optional[Suit]) -> Deal:
    """The deal a complete play shows: each card belongs to the seat that played it, and the
    seats follow from the leader of trick 1 and the winner of each trick.

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


@dataclass(frozen=True)
class GameRecord:
    """A recorded round: the deal, who dealt, the trump, the leader, who played, the rules,
    and the cards played (complete or not, legal or not).

    JSON: {"deal": "N:...", "dealer": "W", "trump": "H", "leader": "N", "playing": "NS",
    "rules": "amsterdam" | "rotterdam" | {options}, "played": ["HA", ...] or "HA HT ...",
    "chooser_leads": false, "notation": "en" | "nl", "dummy": "N", "players": {"N": "Anna",
    ...}}. `leader` may be left out: then the seat
    left of the dealer leads; a leader elsewhere needs `chooser_leads` (the chooser leads,
    spelpunt). `deal` may be left out when `played` holds all 32 cards: who played what
    shows the deal (`deal_from_play`). `notation` is the card notation of the deal, trump
    and cards ("nl": the Dutch one, suits K R H S, ranks A H V B 10 9 8 7); "en" when absent.
    `dummy` is the silent partner's seat, needed when the rules say `players=3` and refused
    otherwise; `players` names the person at any seats (at a table of two, one name a team).

    A ledig round (rules {"contract": "ledig"}: the bidder undertakes to take no trick) names
    its `bidder` seat; `playing` then follows from it (the bidder's team) and `trump` is left
    out unless the rules say `ledig_trump: "chosen"`.

    A play that cannot happen at a table is a `RecordError`: a card its seat does not hold
    (played twice, or dealt to another seat), or a card after the 32nd. A held card that
    breaks a duty is a revoke, which `analyse_play` reports and scores.
    """

    deal: Deal
    # Defaults only so that a ledig round may leave out its trump and playing team; the
    # leader is always needed, or a dealer (left of it leads).
    trump: Optional[Suit] = None    # None only in a ledig round without trump
    leader: Seat = None             # type: ignore[assignment]
    playing: Team = None            # type: ignore[assignment]
    rules: Rules = field(default_factory=Rules)
    played: Tuple[Card, ...] = ()
    dealer: Optional[Seat] = None
    chooser_leads: bool = False
    bidder: Optional[Seat] = None   # the seat that bid ledig; only in a ledig round
    # Tables of three and of two (docs/rules.md): the silent partner's seat under players=3,
    # and the name of the player at each seat ({"N": "Anna", ...}; any seats, or none).
    dummy: Optional[Seat] = None
    players: Optional[Mapping[Seat, str]] = None

    def __post_init__(self) -> None:
        def setting(name: str, parse: Callable[[Any], object]) -> None:
            try:
                object.__setattr__(self, name, parse(getattr(self, name)))
            except SolverError as err:
                raise RecordError(f"game record field {name!r}: {err}") from None

        if not isinstance(self.deal, Deal):
            raise RecordError(f"game record field 'deal' must be a Deal, got {quote(self.deal)}")
        setting("rules", load_rules)
        if self.playing is not None:
            setting("playing", Team.parse)
        self._check_ledig()
        for name in ("trump", "playing"):
            if getattr(self, name) is None and self.rules.contract != "ledig":
                raise RecordError(f"game record has no {name!r} field")
        if self.trump is not None:
            setting("trump", Suit.parse)
        if self.dealer is not None:
            setting("dealer", Seat.parse)
        if self.leader is None:
            if self.dealer is None:
                raise RecordError("game record needs a 'leader' (or a 'dealer': left of it leads)")
            object.__setattr__(self, "leader", self.dealer.left)
        setting("leader", Seat.parse)
        setting("played", _played_cards)
        if self.dummy is not None:
            setting("dummy", Seat.parse)
        if self.players is not None:
            setting("players", _player_names)
        self._check_players()
        if not isinstance(self.chooser_leads, bool):
            raise RecordError(f"game record field 'chooser_leads' must be true or false, got "
                              f"{quote(self.chooser_leads)}")
        if self.dealer is not None and not self.chooser_leads and self.leader != self.dealer.left:
            raise RecordError(
                f"game record: leader {self.leader.name} contradicts dealer {self.dealer.name}, "
                f"whose left-hand seat {self.dealer.left.name} leads; when the chooser leads, "
                f"set chooser_leads to true")
        self._check_cards_can_be_played()

    def _check_players(self) -> None:
        # At a table of two one person holds both hands of a team: one name for both seats.
        if not self.players or self.rules.players != 2:
            return
        for team in Team:
            named = {self.players[s] for s in team.seats if s in self.players}
            if len(named) > 1:
                raise RecordError(f"game record field 'players': at a table of two one player "
                                  f"holds {team.name}, but its seats name {' and '.join(sorted(named))}")

    def _check_ledig(self) -> None:
        """A ledig round names its bidder, and the playing team follows from it; a trump
        round has no bidder."""
        if self.rules.contract != "ledig":
            if self.bidder is not None:
                raise RecordError(f"game record field 'bidder' is only for a ledig round "
                                  f"(rules contract 'ledig'), and these rules have contract "
                                  f"{self.rules.contract!r}")
            return
        if self.bidder is None:
            raise RecordError("game record of a ledig round (rules contract 'ledig') has no "
                              "'bidder' field: name the seat that bid ledig")
        try:
            bidder = Seat.parse(self.bidder)
        except SolverError as err:
            raise RecordError(f"game record field 'bidder': {err}") from None
        object.__setattr__(self, "bidder", bidder)
        if self.playing is None:
            object.__setattr__(self, "playing", bidder.team)
        elif self.playing != bidder.team:
            raise RecordError(f"game record field 'playing': {self.playing.name} is "
                              f"not the team of the bidder {bidder.name}; in a ledig round the "
                              f"bidder's team plays (leave 'playing' out)")
        if self.trump is not None and self.rules.ledig_trump == "none":
            raise RecordError("game record field 'trump': a ledig round under rules ledig_trump "
                              "'none' has no trump; leave 'trump' out (or set ledig_trump "
                              "'chosen')")
        if self.trump is None and self.rules.ledig_trump == "chosen":
            raise RecordError("game record of a ledig round with rules ledig_trump 'chosen' "
                              "has no 'trump' field: name the trump suit")

    def _check_cards_can_be_played(self) -> None:
        try:
            game = self.game()
        except SolverError as err:     # what Game refuses in the round's setting (a dummy
            # the table does not have or misses, a ledig bidder's team)
            raise RecordError(f"game record: {err}") from None
        for number, card in enumerate(self.played, start=1):
            try:
                game.place(card)
            except IllegalPlayError as err:
                if err.duty == "over":
                    raise RecordError(f"game record field 'played': card {number} ({card}) comes "
                                      f"after the end of the round; a round has 32 cards") from None
                raise RecordError(f"game record field 'played': card {number}, {err}") from None

    @classmethod
    def json_schema(cls) -> Dict[str, Any]:
        """The JSON Schema (draft 2020-12) of a record, as the package ships it
        (`solver/model/record.schema.json`; docs/record-format.md describes every field).

        >>> GameRecord.json_schema()["properties"]["bidder"]["description"]
        'the seat that bid ledig (a ledig round only)'
        """
        return json.loads(_schema_text())

    @classmethod
    def from_dict(cls, data: Any, notation: str = "en") -> "GameRecord":
        """A record from its JSON object (see the class docstring); RecordError names a
        missing or malformed field. `notation` is the card notation when the record names
        none.

        The record is validated against `json_schema()` first; a record of a newer `format`
        than this version reads is refused, saying so."""
        if not isinstance(data, dict):
            raise RecordError(f"a game record is a JSON object, got {quote(data)}")
        _check_format(data)
        error = _schema_error(data if "notation" in data else {**data, "notation": notation})
        if error is None:
            return cls._read(data, notation)
        # The reader names what is wrong in the game's words (an unknown suit, a hand of 7
        # cards); the schema's own message is the fallback for a shape only it refuses.
        cls._read(data, notation)
        raise _schema_record_error(error)

    @classmethod
    def _read(cls, data: Dict[str, Any], notation: str) -> "GameRecord":
        known = {"format", "deal", "dealer", "trump", "leader", "playing", "rules", "played",
                 "chooser_leads", "notation", "bidder", "dummy", "players"}
        unknown = sorted((str(k) for k in data if k not in known))
        if unknown:
            raise RecordError(f"unknown field {quote(unknown[0])} in game record; the fields are "
                              f"{', '.join(sorted(known))}")

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
        cards = parsed("played", lambda text: _played_cards(text, notation), played)
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
        return cls(deal=deal, trump=trump, leader=leader, playing=playing,  # type: ignore[arg-type]
                   rules=rules, played=cards, dealer=dealer,
                   chooser_leads=data.get("chooser_leads", False), bidder=bidder,
                   dummy=parsed("dummy", Seat.parse, data["dummy"]) if data.get("dummy") is not None else None,
                   players=data.get("players"))

    @classmethod
    def from_json(cls, text: str, notation: str = "en") -> "GameRecord":
        """A record from JSON text; `from_dict` after parsing it."""
        return cls.from_dict(load_json(text, "game record", RecordError), notation)

    @classmethod
    def load(cls, path: Union[str, Path], notation: str = "en") -> "GameRecord":
        """Read a record from a JSON file (UTF-8, a byte order mark allowed); RecordError
        names a file that cannot be read."""
        return cls.from_json(_read_text(path), notation)

    @classmethod
    def from_json_lines(cls, text: str, notation: str = "en") -> List["GameRecord"]:
        """The records of JSON Lines text, one record per line (blank lines are skipped); a
        RecordError names the line of a bad record.

        >>> line = Path("examples/game.json").read_text().replace("\\n", " ")
        >>> len(GameRecord.from_json_lines(line + "\\n" + line + "\\n"))
        2
        """
        if not isinstance(text, str):
            raise RecordError(f"JSON Lines of game records must be text, got {quote(text)}")
        records = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(cls.from_json(line, notation))
            except RecordError as err:
                raise RecordError(f"line {number}: {err}") from None
        return records

    @classmethod
    def load_many(cls, path: Union[str, Path], notation: str = "en") -> List["GameRecord"]:
        """Read the records of a JSON Lines file (`games.jsonl`: one record per line); a
        RecordError names the file and the line of a bad record."""
        try:
            return cls.from_json_lines(_read_text(path), notation)
        except RecordError as err:
            raise RecordError(f"{shorten(str(path))}, {err}") from None

    @staticmethod
    def dump_many(records: Iterable["GameRecord"], path: Union[str, Path]) -> None:
        """Write records to a JSON Lines file, one `to_dict()` per line; `load_many` reads
        them back."""
        Path(path).write_text("".join(json.dumps(r.to_dict()) + "\n" for r in records))

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object `from_dict` reads back."""
        data: Dict[str, Any] = {
            "format": RECORD_FORMAT, "deal": self.deal.to_pbn(),
            "trump": self.trump.name if self.trump is not None else None, "leader": self.leader.name,
            "playing": self.playing.name, "rules": self.rules.to_dict(),
            "played": [str(c) for c in self.played]}
        if self.bidder is not None:
            data["bidder"] = self.bidder.name
        if self.trump is None:
            del data["trump"]
        if self.dealer is not None:
            data["dealer"] = self.dealer.name
        if self.chooser_leads:
            data["chooser_leads"] = True
        if self.dummy is not None:
            data["dummy"] = self.dummy.name
        if self.players:
            data["players"] = {seat.name: name for seat, name in self.players.items()}
        return data

    def game(self) -> Game:
        """A fresh Game at the start of this round (nothing played)."""
        return Game(self.deal, self.trump, self.leader, self.playing, self.rules,
                    bidder=self.bidder, dummy=self.dummy)

    def scores(self) -> Optional[ByTeam]:
        """Each team's score for the round the play shows: the final scores after the 32nd
        card, or after a revoke (verzaken, which ends the round) the revoke scores; None while
        the round is unfinished.

        >>> GameRecord.load("examples/game.json").scores().to_dict()
        {'NS': 43, 'EW': 179}
        """
        game = self.game()
        for card in self.played:
            try:
                game.check(card)
            except IllegalPlayError:
                return revoke_scores(game.to_move.team, game.roem_so_far(), self.rules)
            game.play(card)
        if not game.is_over:
            return None
        return game.final_scores()

    def player_scores(self) -> Optional[List[Tuple[Player, int]]]:
        """Each player at the table (`solver.model.players.table_players`: four, or the
        chooser and two defenders, or two) with his score for the round, his team's `scores()`;
        None while the round is unfinished.

        >>> record = GameRecord.load("examples/game.json")
        >>> [(p.label, score) for p, score in record.player_scores()][:1]
        [('E (playing)', 179)]
        """
        scores = self.scores()
        if scores is None:
            return None
        return [(p, scores[p.team])
                for p in table_players(self.rules, self.playing, self.dummy, self.players)]


def _player_names(names: Any) -> Dict[Seat, str]:
    """The record's "players": each named seat's player, e.g. {"N": "Anna", "E": "Bob"}."""
    if not isinstance(names, Mapping):
        raise RecordError(f"must map seats to the names of their players, e.g. "
                          f"{{\"N\": \"Anna\"}}; got {quote(names)}")
    parsed: Dict[Seat, str] = {}
    for seat, name in names.items():
        where = Seat.parse(seat)
        if not isinstance(name, str) or not name.strip() or len(name) > MOST_NAME_CHARACTERS:
            raise RecordError(f"seat {where.name}: a player's name is text of 1 to "
                              f"{MOST_NAME_CHARACTERS} characters, got {quote(name)}")
        parsed[where] = name.strip()
    return dict(sorted(parsed.items()))


def _read_text(path: Union[str, Path]) -> str:
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
    return validators.extend(Draft202012Validator, type_checker=checker)(
        json.loads(_schema_text()))


def _schema_error(data: Dict[str, Any]) -> Optional["ValidationError"]:
    """The schema's most relevant complaint about `data`, or None when it fits."""
    from jsonschema.exceptions import best_match
    return best_match(_validator().iter_errors(data))


def _schema_record_error(error: "ValidationError") -> RecordError:
    """A schema complaint as a RecordError naming the field (and where inside it)."""
    path = [str(part) for part in error.absolute_path]
    if not path:
        return RecordError(f"game record: {shorten(error.message)}")
    inside = f"{'.'.join(path[1:])} " if len(path) > 1 else ""
    return RecordError(f"game record field {path[0]!r}: {inside}{quote(error.instance)} does "
                       f"not fit the record format ({shorten(error.message)})")
