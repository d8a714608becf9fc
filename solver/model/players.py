"""Who sits at the table: the players of a round, the hands each one plays, what each one sees
and what each one scores (docs/rules.md, "Tables of three and of two").

The four hands and the tricks are the same at every table; only the people differ. With four
players each plays one hand. With three, the dummy's hand (the silent partner) is played by
the seat opposite it, the chooser, and the other two defend. With two, each player holds both
hands of one team.

>>> from solver import Rules, Team
>>> [p.label for p in table_players(Rules(players=3), Team.NS, dummy=Seat.N)]
['S (chooser, with dummy N)', 'E (defender)', 'W (defender)']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Tuple

from .cards import Seat, Team
from ..errors import SolverError
from .rules import Rules

# The longest name a record gives a player: longer is a slip, not a name.
MOST_NAME_CHARACTERS = 100

# A player's part in the round: the chooser (three players: he plays his hand and the
# dummy's), a player of the playing team, or a defender.
ROLES = ("chooser", "playing", "defender")


@dataclass(frozen=True)
class Player:
    """One person at the table: the hands he plays (his own first), his part in the round and,
    when the record names him, his name."""

    seats: Tuple[Seat, ...]
    role: str
    name: Optional[str] = None

    @property
    def seat(self) -> Seat:
        """The player's own seat (under three players the chooser's, not the dummy's)."""
        return self.seats[0]

    @property
    def team(self) -> Team:
        """The team whose score is his."""
        return self.seat.team

    @property
    def label(self) -> str:
        """How a report names him: his name or seat, with what he plays,
        e.g. "Anna (S, chooser, with dummy N)"."""
        return self.label_in(_english)

    def label_in(self, say: Callable[..., str]) -> str:
        """`label` in another language: `say(text, **blanks)` gives the translation of the
        English `text` with its blanks filled in (the report's `words.say`)."""
        if self.role == "chooser":
            part = say("chooser, with dummy {dummy}", dummy=self.seats[1].name)
        elif len(self.seats) == 2:
            part = say("holds {first} and {second}", first=self.seats[0].name,
                       second=self.seats[1].name)
        else:
            part = say("defender" if self.role == "defender" else "playing")
        if self.name is None:
            return f"{self.seat.name} ({part})"
        return f"{self.name} ({self.seat.name}, {part})"

    def to_dict(self, score: Optional[int] = None) -> Dict[str, object]:
        """Plain JSON-ready values, with his `score` when given."""
        data: Dict[str, object] = {"seats": [s.name for s in self.seats], "role": self.role,
                                   "name": self.name}
        if score is not None:
            data["score"] = score
        return data


def _english(text: str, **blanks: Any) -> str:
    return text.format(**blanks)


def table_players(rules: Rules, playing: Team, dummy: Optional[Seat] = None,
                  names: Optional[Mapping[Seat, str]] = None) -> List[Player]:
    """The players of a round, the playing team's first: four, three (the chooser plays the
    `dummy` too) or two, as `rules.players` says. `names` gives each seat's player's name;
    under two players either seat of a team names its player."""
    names = dict(names or {})
    if rules.players == 2:
        return [Player(team.seats, "playing" if team == playing else "defender",
                       _team_name(names, team)) for team in (playing, playing.other)]
    order = [s for s in Seat if s.team == playing] + [s for s in Seat if s.team != playing]
    if rules.players == 3:
        if dummy is None:
            raise SolverError("a three-player round needs its dummy seat to name its players")
        chooser = dummy.partner
        return [Player((chooser, dummy), "chooser", names.get(chooser))] + [
            Player((s,), "defender", names.get(s)) for s in order if s.team != playing]
    return [Player((s,), "playing" if s.team == playing else "defender", names.get(s))
            for s in order]


def _team_name(names: Mapping[Seat, str], team: Team) -> Optional[str]:
    found = [names[s] for s in team.seats if s in names]
    return found[0] if found else None


def player_of(players: List[Player], seat: Seat) -> Player:
    """The player who plays the hand at `seat` (under three players the dummy's is the
    chooser's)."""
    return next(p for p in players if seat in p.seats)


def dummy_open_from(rules: Rules) -> Optional[int]:
    """How many cards must be on the table before the defenders see the dummy's hand: 0
    (dummy_open="always"), 1 ("after_lead", the default) or None ("never"; they only see its
    cards as they are played)."""
    return {"always": 0, "after_lead": 1, "never": None}[rules.dummy_open]


def seen_seats(rules: Rules, seat: Seat, cards_played: int,
               dummy: Optional[Seat] = None) -> FrozenSet[Seat]:
    """The hands whose every card the player of `seat` sees once `cards_played` cards are on
    the table: his own; under two players his team's both; under three players the chooser
    (and a view asked for the dummy, which is his) sees the dummy's hand from the start, and
    a defender from the moment `dummy_open_from(rules)` says.

    >>> from solver import Rules
    >>> sorted(s.name for s in seen_seats(Rules(players=3), Seat.E, 1, dummy=Seat.N))
    ['E', 'N']
    """
    if rules.players == 2:
        return frozenset(seat.team.seats)
    if rules.players == 3:
        if dummy is None:
            raise SolverError("a three-player round needs its dummy seat to say what each "
                              "player sees")
        if seat in (dummy, dummy.partner):
            return frozenset((dummy, dummy.partner))
        opens = dummy_open_from(rules)
        if opens is not None and cards_played >= opens:
            return frozenset((seat, dummy))
    return frozenset((seat,))
