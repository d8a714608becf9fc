"""`MovesResult`: the value of every legal card of the player to move, as `solve --moves` shows it.

Its values are for the playing team, as `solve_moves` gives them (and `--moves --json`
prints them); its text, like `view` and the labels, takes the view of the team to move:
signed for that team, its best card first.

>>> from solver.model.cards import Card, Seat, Team
>>> result = MovesResult("points", {Card.parse("HA"): -2, Card.parse("H7"): -30}, [],
...                      Seat.S, Team.EW)
>>> result.to_dict()["moves"]
{'HA': -2, 'H7': -30}
>>> MovesResult.from_dict(result.to_dict()) == result
True
>>> print(result)
S to play; points for NS, the team to move, after each card (best first):
  ♥7  +30
  ♥A   +2
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List

from ..errors import reading_fields
from ..model.cards import Card, Seat, Team, check_notation, parse_cards
from ..model.scoring import Value, value_for_team


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

    @property
    def team(self) -> Team:
        """The team of the player to move: the view the text takes."""
        return self.to_move.team

    def values_for_team_to_move(self) -> Dict[Card, Value]:
        """The values seen from the team to move (`value_for_team`), best first; cards of
        equal value in card order."""
        mover = {card: value_for_team(value, self.team, self.playing)
                 for card, value in self.values.items()}
        return dict(sorted(mover.items(), key=lambda kv: (-kv[1], kv[0])))

    def to_text(self, notation: str = "en") -> str:
        """The text of `solve --moves`: a header naming the view, then one line a card, best
        first for the team to move; cards in the card `notation`."""
        check_notation(notation)
        if self.objective == "make":
            aim = "makes it" if self.team == self.playing else f"holds {self.playing} nat"
            header = (f"{self.to_move} to play; make after each card: True if {self.team}, the "
                      f"team to move, {aim} (best first):")
        else:
            header = (f"{self.to_move} to play; {self.objective} for {self.team}, the team to "
                      f"move, after each card (best first):")
        values = self.values_for_team_to_move()
        cards = [card.to_str(True, notation) for card in values]
        shown = [str(v) if isinstance(v, bool) else f"{v:+d}" for v in values.values()]
        left = max(map(len, cards), default=0)
        right = max(map(len, shown), default=0)
        return "\n".join([header] + [f"  {card:<{left}}  {text:>{right}}"
                                      for card, text in zip(cards, shown)])

    def __str__(self) -> str:
        return self.to_text()

    def to_dict(self) -> Dict[str, Any]:
        # "objective" and "moves" are the keys `klaverjas solve --moves --json` always printed.
        return {"objective": self.objective,
                "moves": {str(card): value for card, value in self.values.items()},
                "played": [str(card) for card in self.played],
                "to_move": self.to_move.name, "playing": self.playing.name}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "MovesResult":
        with reading_fields("a moves result", data):
            return cls(data["objective"],
                       {Card.parse(card): value for card, value in data["moves"].items()},
                       parse_cards(data.get("played", [])), Seat.parse(data["to_move"]),
                       Team.parse(data["playing"]))
