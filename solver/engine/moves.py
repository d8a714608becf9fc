"""`MovesResult`: the value of every legal card of the player to move, as `solve --moves` shows it.

>>> from solver.model.cards import Card, Seat, Team
>>> result = MovesResult("points", {Card.parse("HA"): -2, Card.parse("H7"): -30}, [],
...                      Seat.S, Team.EW)
>>> result.to_dict()["moves"]
{'HA': -2, 'H7': -30}
>>> MovesResult.from_dict(result.to_dict()) == result
True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Union

from ..model.cards import Card, Seat, Team, parse_cards

Value = Union[int, bool]


@dataclass(frozen=True)
class MovesResult:
    """{card: value} for every legal card of `to_move`: the value, for the `playing` team
    (the point of view of every value), if that card is played and both sides play
    optimally afterwards. `played` is the cards before the position."""

    objective: str
    values: Dict[Card, Value]
    played: List[Card]
    to_move: Seat
    playing: Team

    def to_dict(self) -> Dict[str, Any]:
        # "objective" and "moves" are the keys `klaverjas solve --moves --json` always printed.
        return {"objective": self.objective,
                "moves": {str(card): value for card, value in self.values.items()},
                "played": [str(card) for card in self.played],
                "to_move": self.to_move.name, "playing": self.playing.name}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "MovesResult":
        return cls(data["objective"],
                   {Card.parse(card): value for card, value in data["moves"].items()},
                   parse_cards(data.get("played", [])), Seat.parse(data["to_move"]),
                   Team.parse(data["playing"]))
