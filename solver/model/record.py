"""Game records: a recorded round, checked for play that cannot happen at a table.

The record is data; reading and writing it (JSON, JSON Lines, files, the schema) live in
`record_io`, the checks of what it says in `record_checks`, what it scores in
`record_scores`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple, Union

from .cards import ByTeam, Card, Seat, Suit, Team
from .deal import Deal
from ..errors import RecordError, SolverError, quote, shorten
from .game import Game
from .json_text import load_json
from .players import Player
from .record_checks import check_cards_can_be_played, check_players, player_names, settle_ledig
from .record_io import (deal_from_play, played_cards, read_record, read_text, record_schema,
                        records_from_json_lines, write_json_lines)
from .record_schema import RECORD_FORMAT
from .record_scores import record_player_scores, record_scores
from .rules import Rules, load_rules

__all__ = ["GameRecord", "deal_from_play"]


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
        settle_ledig(self)
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
        setting("played", played_cards)
        if self.dummy is not None:
            setting("dummy", Seat.parse)
        if self.players is not None:
            setting("players", player_names)
        check_players(self)
        if not isinstance(self.chooser_leads, bool):
            raise RecordError(f"game record field 'chooser_leads' must be true or false, got "
                              f"{quote(self.chooser_leads)}")
        if self.dealer is not None and not self.chooser_leads and self.leader != self.dealer.left:
            raise RecordError(
                f"game record: leader {self.leader.name} contradicts dealer {self.dealer.name}, "
                f"whose left-hand seat {self.dealer.left.name} leads; when the chooser leads, "
                f"set chooser_leads to true")
        check_cards_can_be_played(self)

    @classmethod
    def json_schema(cls) -> Dict[str, Any]:
        """The JSON Schema (draft 2020-12) of a record, as the package ships it
        (`solver/model/record.schema.json`; docs/record-format.md describes every field).

        >>> GameRecord.json_schema()["properties"]["bidder"]["description"]
        'the seat that bid ledig (a ledig round only)'
        """
        return record_schema()

    @classmethod
    def from_dict(cls, data: Any, notation: str = "en") -> "GameRecord":
        """A record from its JSON object (see the class docstring); RecordError names a
        missing or malformed field. `notation` is the card notation when the record names
        none.

        The record is validated against `json_schema()` first; a record of a newer `format`
        than this version reads is refused, saying so."""
        return read_record(cls, data, notation)

    @classmethod
    def from_json(cls, text: str, notation: str = "en") -> "GameRecord":
        """A record from JSON text; `from_dict` after parsing it."""
        return cls.from_dict(load_json(text, "game record", RecordError), notation)

    @classmethod
    def load(cls, path: Union[str, Path], notation: str = "en") -> "GameRecord":
        """Read a record from a JSON file (UTF-8, a byte order mark allowed); RecordError
        names a file that cannot be read."""
        return cls.from_json(read_text(path), notation)

    @classmethod
    def from_json_lines(cls, text: str, notation: str = "en") -> List["GameRecord"]:
        """The records of JSON Lines text, one record per line (blank lines are skipped); a
        RecordError names the line of a bad record.

        >>> line = Path("examples/game.json").read_text().replace("\\n", " ")
        >>> len(GameRecord.from_json_lines(line + "\\n" + line + "\\n"))
        2
        """
        return records_from_json_lines(cls, text, notation)

    @classmethod
    def load_many(cls, path: Union[str, Path], notation: str = "en") -> List["GameRecord"]:
        """Read the records of a JSON Lines file (`games.jsonl`: one record per line); a
        RecordError names the file and the line of a bad record."""
        try:
            return cls.from_json_lines(read_text(path), notation)
        except RecordError as err:
            raise RecordError(f"{shorten(str(path))}, {err}") from None

    @staticmethod
    def dump_many(records: Iterable["GameRecord"], path: Union[str, Path]) -> None:
        """Write records to a JSON Lines file, one `to_dict()` per line; `load_many` reads
        them back."""
        write_json_lines(records, path)

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
        return record_scores(self)

    def player_scores(self) -> Optional[List[Tuple[Player, int]]]:
        """Each player at the table (`solver.model.players.table_players`: four, or the
        chooser and two defenders, or two) with his score for the round, his team's `scores()`;
        None while the round is unfinished.

        >>> record = GameRecord.load("examples/game.json")
        >>> [(p.label, score) for p, score in record.player_scores()][:1]
        [('E (playing)', 179)]
        """
        return record_player_scores(self)
