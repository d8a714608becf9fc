"""Double-dummy tables: every trump and leader (DDS's `calc_dd_table`); for ledig, every
bidder and leader (and trump, under ledig_trump "chosen")."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

from ..errors import SolverError, reading_fields
from ..model.cards import Seat, SeatLike, Suit, SuitLike, Team, TeamLike
from ..model.deal import Deal, check_deal
from ..model.game import Game
from ..model.rules import Rules, check_rules
from .parallel import solve_all
from ..engine.search import Solver

if TYPE_CHECKING:   # NumPy is imported only where an array is made
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True, repr=False)
class DDTable:
    """Points values and makeability for every trump suit and leader (DDS's `calc_dd_table`).

    `values[team][trump][leader]` is the `points` value with `team` playing;
    `makes[team][trump][leader]` whether `team` avoids nat. Keys are letters: "NS", "H", "E".
    """

    deal: Deal
    rules: Rules
    values: Dict[str, Dict[str, Dict[str, int]]]
    makes: Dict[str, Dict[str, Dict[str, bool]]]

    def value(self, trump: SuitLike, leader: SeatLike, team: TeamLike = "NS") -> int:
        """The points value for `team` playing with this trump and leader."""
        return self.values[Team.parse(team).name][Suit.parse(trump).name][Seat.parse(leader).name]

    def makeable(self, trump: SuitLike, leader: SeatLike, team: TeamLike = "NS") -> bool:
        """Whether `team`, playing with this trump and leader, avoids nat."""
        return self.makes[Team.parse(team).name][Suit.parse(trump).name][Seat.parse(leader).name]

    def to_numpy(self, team: TeamLike = "NS") -> "npt.NDArray[np.int16]":
        """int16 array `[trump][leader]`, suits C D H S, seats N E S W."""
        import numpy as np   # only here: importing solver should not start NumPy's threads
        name = Team.parse(team).name
        return np.array([[self.values[name][s.name][p.name] for p in Seat] for s in Suit],
                        dtype=np.int16)

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values; `DDTable.from_dict(table.to_dict()) == table`."""
        return {"deal": self.deal.to_pbn(), "rules": self.rules.to_dict(),
                "values": self.values, "makes": self.makes}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "DDTable":
        """The table `to_dict` wrote."""
        with reading_fields("a double-dummy table", data):
            # Files written before the key was named for the attribute say "makeable".
            makes = data["makeable"] if "makes" not in data and "makeable" in data else data["makes"]
            return cls(Deal.from_pbn(data["deal"]), Rules.from_dict(data["rules"]),
                       data["values"], makes)

    def __str__(self) -> str:
        lines = ["points for NS by trump and leader; * NS makes it, ° EW makes it",
                 "trump    " + "".join(f"{s.name:>8}" for s in Seat)]
        for suit in Suit:
            cells = []
            for seat in Seat:
                mark = ("*" if self.makeable(suit, seat, "NS") else
                        "°" if self.makeable(suit, seat, "EW") else " ")
                cells.append(f"{self.value(suit, seat):>+7d}{mark}")
            lines.append(f"{suit.symbol} {suit.name}      " + "".join(cells))
        return "\n".join(lines)

    def __repr__(self) -> str:
        rows = "; ".join(f"{s}: " + " ".join(f"{self.value(s, p):+d}" for p in Seat) for s in Suit)
        return f"DDTable({self.deal.to_pbn()!r}, NS points by trump, leaders N E S W: {rows})"

    def _repr_html_(self) -> str:
        from ..html.jupyter import dd_table_html
        return dd_table_html(self)


# The trump key of a ledig table without trump (ledig_trump "none").
NO_TRUMP = "none"


@dataclass(frozen=True, repr=False)
class LedigTable:
    """The ledig table: for every bidder seat and leader (and trump, under ledig_trump
    "chosen"), the `points` value of ledig, minus the tricks the bidder takes with best play
    by both sides (0: the bidder takes no trick, ledig is made).

    `values[bidder][trump][leader]`, keys are letters ("S", "H", "W"); the trump key is
    "none" without trump. A seat's ledig is makeable when its value is 0.

    >>> from solver import Deal, Rules
    >>> table = solve_table(Deal.random(1), Rules(contract="ledig"))
    >>> table.value(bidder="S", leader="W") <= 0
    True
    """

    deal: Deal
    rules: Rules
    values: Dict[str, Dict[str, Dict[str, int]]]

    @property
    def trumps(self) -> List[Optional[Suit]]:
        """The trumps of the table: [None] without trump, else the four suits."""
        return list(Suit) if self.rules.ledig_trump == "chosen" else [None]

    def _trump_key(self, trump: Optional[SuitLike]) -> str:
        if self.rules.ledig_trump != "chosen":
            if trump is not None:
                raise SolverError(f"this ledig table has no trump (ledig_trump 'none'), so no "
                                  f"trump is asked for; got {trump!r}")
            return NO_TRUMP
        if trump is None:
            raise SolverError("this ledig table is by trump (ledig_trump 'chosen'): give trump=")
        return Suit.parse(trump).name

    def value(self, bidder: SeatLike, leader: SeatLike, trump: Optional[SuitLike] = None) -> int:
        """The points value of ledig for `bidder` (minus its tricks) with this leader; `trump`
        only under ledig_trump "chosen"."""
        return self.values[Seat.parse(bidder).name][self._trump_key(trump)][Seat.parse(leader).name]

    def makeable(self, bidder: SeatLike, leader: SeatLike, trump: Optional[SuitLike] = None) -> bool:
        """Whether `bidder` can take no trick with this leader (and trump)."""
        return self.value(bidder, leader, trump) == 0

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values; `LedigTable.from_dict(table.to_dict()) == table`."""
        return {"contract": "ledig", "deal": self.deal.to_pbn(), "rules": self.rules.to_dict(),
                "values": self.values}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "LedigTable":
        """The table `to_dict` wrote."""
        with reading_fields("a ledig table", data):
            return cls(Deal.from_pbn(data["deal"]), Rules.from_dict(data["rules"]), data["values"])

    def __str__(self) -> str:
        lines = ["ledig: minus the tricks the bidder takes with best play, by bidder and "
                 "leader; * the bidder takes no trick"]
        for trump in self.trumps:
            title = (f"trump {trump.symbol} {trump.name}" if trump is not None else "no trump")
            lines.append(f"{title:<9}" + "".join(f"{s.name:>8}" for s in Seat) + "  (leader)")
            for bidder in Seat:
                cells = []
                for leader in Seat:
                    value = self.value(bidder, leader, trump)
                    cells.append(f"{value:>7d}{'*' if value == 0 else ' '}")
                lines.append((f"bidder {bidder.name} " + "".join(cells)).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        rows = "; ".join(
            f"{bidder.name}{'' if trump is None else ' ' + trump.name}: "
            + " ".join(f"{self.value(bidder, p, trump):+d}" for p in Seat)
            for trump in self.trumps for bidder in Seat)
        return f"LedigTable({self.deal.to_pbn()!r}, ledig by bidder, leaders N E S W: {rows})"

    def _repr_html_(self) -> str:
        from ..html.jupyter import ledig_table_html
        return ledig_table_html(self)


def solve_table(deal: Deal, rules: Optional[Rules] = None, solver: Optional[Solver] = None,
                workers: Optional[int] = None) -> Union[DDTable, LedigTable]:
    """Solve every trump suit and leader for both teams: 16 `points` values (32 under
    pit="playing") and whether each team makes it (from the points value, or 32 `make` tests
    under nat="82").

    Under rules with contract "ledig" the table is a `LedigTable`: every bidder seat and
    leader, 16 values (64 under ledig_trump "chosen", by trump too).

    The 16 cells are solved on `workers` threads (default: all cores), one Solver each; the
    table is the same for any worker count. A `solver` given is used alone, on this thread."""
    check_deal(deal)
    rules = check_rules(rules)
    if rules.contract == "ledig":
        return _ledig_table(deal, rules, solver, workers)

    def cell(solver: Solver, where: Tuple[Suit, Seat]
             ) -> Tuple[Dict[Team, int], Dict[Team, bool]]:
        suit, leader = where
        # At a table of three the value is the same whichever hand of the team is the dummy
        # (double dummy, partners play as one mind: tests/test_players.py).
        games = {team: Game(deal, suit, leader, team, rules,
                            dummy=team.seats[0] if rules.players == 3 else None) for team in Team}
        ns = solver.value(games[Team.NS], "points")
        # One solve serves both teams, except when only the playing team can earn pit.
        ew = -ns if rules.pit != "playing" else solver.value(games[Team.EW], "points")
        values = {Team.NS: ns, Team.EW: ew}
        makes = {team: solver.make_value(games[team], values[team]) for team in Team}
        return values, makes

    cells = [(suit, leader) for suit in Suit for leader in Seat]
    results = solve_all(cell, cells, rules, workers, solver)
    values: Dict[str, Dict[str, Dict[str, int]]] = {t.name: {s.name: {} for s in Suit} for t in Team}
    makes: Dict[str, Dict[str, Dict[str, bool]]] = {t.name: {s.name: {} for s in Suit} for t in Team}
    for (suit, leader), (value, made) in zip(cells, results):
        for team in Team:
            values[team.name][suit.name][leader.name] = value[team]
            makes[team.name][suit.name][leader.name] = made[team]
    return DDTable(deal, rules, values, makes)


def _ledig_table(deal: Deal, rules: Rules, solver: Optional[Solver],
                 workers: Optional[int]) -> LedigTable:
    trumps: List[Optional[Suit]] = list(Suit) if rules.ledig_trump == "chosen" else [None]

    def cell(solver: Solver, where: Tuple[Seat, Optional[Suit], Seat]) -> int:
        bidder, trump, leader = where
        # At a table of three, any hand of the bidder's team as the dummy: the same value.
        dummy = bidder.partner if rules.players == 3 else None
        return solver.value(Game(deal, trump, leader, None, rules, bidder=bidder, dummy=dummy),
                            "points")

    cells = [(bidder, trump, leader) for bidder in Seat for trump in trumps for leader in Seat]
    results = solve_all(cell, cells, rules, workers, solver)
    values: Dict[str, Dict[str, Dict[str, int]]] = {
        b.name: {t.name if t is not None else NO_TRUMP: {} for t in trumps} for b in Seat}
    for (bidder, trump, leader), value in zip(cells, results):
        values[bidder.name][trump.name if trump is not None else NO_TRUMP][leader.name] = value
    return LedigTable(deal, rules, values)
