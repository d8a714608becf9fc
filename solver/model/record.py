"""Game records: a recorded round in JSON, checked for play that cannot happen at a table."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

from .cards import Card, Seat, Suit, Team, check_notation, parse_cards
from .deal import Deal
from ..errors import IllegalPlayError, RecordError, SolverError, quote
from .game import Game, winning_index
from .rules import Rules, load_rules

Parsed = TypeVar("Parsed")


def _played_cards(cards: Any, notation: str = "en") -> Tuple[Card, ...]:
    return tuple(parse_cards(cards, notation))


def deal_from_play(played: Sequence[Card], leader: Seat, trump: Suit) -> Deal:
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
    "chooser_leads": false, "notation": "en" | "nl"}. `leader` may be left out: then the seat
    left of the dealer leads; a leader elsewhere needs `chooser_leads` (the chooser leads,
    spelpunt). `deal` may be left out when `played` holds all 32 cards: who played what
    shows the deal (`deal_from_play`). `notation` is the card notation of the deal, trump
    and cards ("nl": the Dutch one, suits K R H S, ranks A H V B 10 9 8 7); "en" when absent.

    A play that cannot happen at a table is a `RecordError`: a card its seat does not hold
    (played twice, or dealt to another seat), or a card after the 32nd. A held card that
    breaks a duty is a revoke, which `analyse_play` reports and scores.
    """

    deal: Deal
    trump: Suit
    leader: Seat
    playing: Team
    rules: Rules = field(default_factory=Rules)
    played: Tuple[Card, ...] = ()
    dealer: Optional[Seat] = None
    chooser_leads: bool = False

    def __post_init__(self) -> None:
        def setting(name: str, parse: Callable[[Any], object]) -> None:
            try:
                object.__setattr__(self, name, parse(getattr(self, name)))
            except SolverError as err:
                raise RecordError(f"game record field {name!r}: {err}") from None

        if not isinstance(self.deal, Deal):
            raise RecordError(f"game record field 'deal' must be a Deal, got {quote(self.deal)}")
        setting("trump", Suit.parse)
        setting("leader", Seat.parse)
        setting("playing", Team.parse)
        setting("rules", load_rules)
        setting("played", _played_cards)
        if self.dealer is not None:
            setting("dealer", Seat.parse)
        if not isinstance(self.chooser_leads, bool):
            raise RecordError(f"game record field 'chooser_leads' must be true or false, got "
                              f"{quote(self.chooser_leads)}")
        if self.dealer is not None and not self.chooser_leads and self.leader != self.dealer.left:
            raise RecordError(
                f"game record: leader {self.leader.name} contradicts dealer {self.dealer.name}, "
                f"whose left-hand seat {self.dealer.left.name} leads; when the chooser leads, "
                f"set chooser_leads to true")
        self._check_cards_can_be_played()

    def _check_cards_can_be_played(self) -> None:
        game = self.game()
        for number, card in enumerate(self.played, start=1):
            try:
                game.place(card)
            except IllegalPlayError as err:
                if err.duty == "over":
                    raise RecordError(f"game record: card {number} ({card}) comes after the "
                                      f"end of the round; a round has 32 cards") from None
                raise RecordError(f"game record: card {number}, {err}") from None

    @classmethod
    def from_dict(cls, data: Any, notation: str = "en") -> "GameRecord":
        """A record from its JSON object (see the class docstring); RecordError names a
        missing or malformed field. `notation` is the card notation when the record names
        none."""
        if not isinstance(data, dict):
            raise RecordError(f"a game record is a JSON object, got {quote(data)}")
        known = {"deal", "dealer", "trump", "leader", "playing", "rules", "played",
                 "chooser_leads", "notation"}
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
        trump = parsed("trump", lambda text: Suit.parse(text, notation), need("trump"))
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
        return cls(deal=deal, trump=trump, leader=leader,
                   playing=parsed("playing", Team.parse, need("playing")),
                   rules=parsed("rules", load_rules, data.get("rules", "amsterdam")),
                   played=cards, dealer=dealer, chooser_leads=data.get("chooser_leads", False))

    @classmethod
    def from_json(cls, text: str, notation: str = "en") -> "GameRecord":
        """A record from JSON text; `from_dict` after parsing it."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(f"game record is not valid JSON: {err}") from None
        except RecursionError:
            raise RecordError("game record is nested too deeply to be a game record") from None
        return cls.from_dict(data, notation)

    @classmethod
    def load(cls, path: Union[str, Path], notation: str = "en") -> "GameRecord":
        """Read a record from a JSON file."""
        return cls.from_json(Path(path).read_text(), notation)

    def to_dict(self) -> Dict[str, Any]:
        """The JSON object `from_dict` reads back."""
        data: Dict[str, Any] = {
            "deal": self.deal.to_pbn(), "trump": self.trump.name, "leader": self.leader.name,
            "playing": self.playing.name, "rules": self.rules.to_dict(),
            "played": [str(c) for c in self.played]}
        if self.dealer is not None:
            data["dealer"] = self.dealer.name
        if self.chooser_leads:
            data["chooser_leads"] = True
        return data

    def game(self) -> Game:
        """A fresh Game at the start of this round (nothing played)."""
        return Game(self.deal, self.trump, self.leader, self.playing, self.rules)
