"""The Python face of the engine: `Solver` (owns a table), `solve`, `solve_moves`.

>>> from solver import Deal, Rules, solve
>>> deal = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
>>> solve(deal, trump="S", leader="S", playing="EW", rules=Rules.amsterdam()).value
-2
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import (Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple,
                    Type, TypeVar)

from ..model.cards import (ALL_CARDS, ByTeam, Card, CardsLike, Rank, Seat, SeatLike, Suit,
                           SuitLike, Team, TeamLike, parse_cards)
from ..model.deal import Deal
from .._kept import keep
from ..errors import SolverError, reading_fields, whole_number
from ..model.game import Game, check_game
from ..model.rules import Rules, RulesLike, check_rules
from ..model.scoring import Value, check_objective, hand_roem, point_factor

from ._compiled import engine as _engine
from .objectives import INFINITY, Objective, objective_of
# Where they were first defined: callers import them from here too.
from .objectives import engine_metric as engine_metric, make_test as make_test

_UNDERTRUMP = {"forbidden": _engine.Undertrump.UNDERTRUMP_FORBIDDEN, "must": _engine.Undertrump.UNDERTRUMP_MUST,
               "free": _engine.Undertrump.UNDERTRUMP_FREE}
_PIT = {"any": _engine.Pit.PIT_ANY, "playing": _engine.Pit.PIT_PLAYING, "none": _engine.Pit.PIT_NONE}
_NAT = {"majority": _engine.Nat.NAT_MAJORITY, "82": _engine.Nat.NAT_82, "none": _engine.Nat.NAT_NONE}

# A position as the engine takes it (`engine_position`).
EnginePosition = Tuple[List[List[int]], List[int], int, Tuple[int, int], Tuple[int, int],
                       Tuple[int, int], int, int]
Returned = TypeVar("Returned")


@dataclass(frozen=True, repr=False)
class SolveResult:
    """The exact value of a position, seen from the playing team, and one optimal line.

    `totals` is keyed by `Team`, as `final_scores` is; a team's letters read the same entry
    (`totals["NS"] == totals[Team.NS]`), and JSON writes the letters."""

    objective: str
    value: Value
    totals: ByTeam                  # each team's total at the end of `line`
    line: List[Card]                # one optimal continuation to the end of the round
    nodes: int                      # nodes searched for `value` and `line`
    played: List[Card] = field(default_factory=list)

    def to_dict(self) -> Dict[str, object]:
        """Plain JSON-ready values; `SolveResult.from_dict(result.to_dict()) == result`."""
        return {"objective": self.objective, "value": self.value,
                "totals": ByTeam(self.totals).to_dict(),
                "line": [str(c) for c in self.line], "nodes": self.nodes,
                "played": [str(c) for c in self.played]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SolveResult":
        """The result `to_dict` wrote."""
        with reading_fields("a solve result", data):
            return cls(data["objective"], data["value"], ByTeam(data["totals"]),
                       parse_cards(data["line"]), data["nodes"], parse_cards(data.get("played", [])))

    def __str__(self) -> str:
        return (f"{self.objective} = {self.value}  (NS {self.totals['NS']}, EW {self.totals['EW']}; "
                f"{self.nodes} nodes)")

    def __repr__(self) -> str:
        return (f"SolveResult(objective={self.objective!r}, value={self.value!r}, "
                f"totals={ByTeam(self.totals).to_dict()!r}, line='{' '.join(map(str, self.line))}', "
                f"nodes={self.nodes})")

    def _repr_html_(self) -> str:
        from ..html.jupyter import solve_result_html
        return solve_result_html(self)


def engine_spec(game: Game) -> Dict[str, Any]:
    """The round's rules as the plain numbers `_engine.Engine.configure` takes."""
    rules, trump = game.rules, game.trump
    if rules.contract == "ledig":
        return _ledig_spec(game)
    assert trump is not None        # Game gives every trump round its trump
    factor = point_factor(rules, trump)
    combos, stuk = [0, 0], [0, 0]
    if rules.roem == "hand":
        for seat in Seat:
            side = 0 if seat.team == game.playing else 1
            c, s = hand_roem(game.deal[seat], trump, rules)
            combos[side] += c
            stuk[side] += s
    holder = game.stuk_holder
    return {
        "trump": int(trump),
        "amsterdam": rules.trump_duty == "amsterdam",
        "undertrump": _UNDERTRUMP[rules.undertrump],
        "roem_table": rules.roem == "table",
        "stuk_trick": rules.roem == "table" and rules.stuk == "trick",
        "stuk_holder": -1 if holder is None else int(holder),
        "four_kind": [rules.four_of_a_kind_value(r) for r in Rank],
        "points": [c.points(trump) * factor for c in ALL_CARDS],
        "strength": [c.strength(trump) for c in ALL_CARDS],
        "factor": factor,
        "pit_mode": _PIT[rules.pit],
        "pit_bonus": rules.pit_bonus,
        "playing": int(game.playing),
        "hand_roem": combos,
        "hand_stuk": stuk,
        "hand_needs_trick": rules.hand_roem_needs_trick,
        "nat": _NAT[rules.nat],
        "multiplier": rules.multiplier,
        "zero_bonus": rules.zero_bonus,
        "bidder": -1,
    }


def spec_reads_deal(rules: Rules) -> bool:
    """Whether `engine_spec` reads the deal under `rules` (roem in hand, or who holds stuk),
    so that rounds of other deals need specs of their own.

    >>> spec_reads_deal(Rules()), spec_reads_deal(Rules(roem="hand"))
    (False, True)
    """
    return rules.roem == "hand" or (rules.roem == "table" and rules.stuk == "hand")


def _ledig_spec(game: Game) -> Dict[str, Any]:
    """engine_spec of a ledig round: only the bidder's tricks count (the ledig metric), so
    no card points, roem, pit or nat; without trump every suit ranks in the plain order."""
    trump, bidder = game.trump, game.bidder
    assert bidder is not None       # Game gives every ledig round its bidder
    return {
        "trump": _engine.WITHOUT_TRUMP if trump is None else int(trump),
        "amsterdam": game.rules.trump_duty == "amsterdam",
        "undertrump": _UNDERTRUMP[game.rules.undertrump],
        "roem_table": False, "stuk_trick": False, "stuk_holder": -1, "four_kind": [0] * 8,
        "points": [0] * 32,
        "strength": [c.strength(trump) for c in ALL_CARDS],
        "factor": 1, "pit_mode": _PIT["none"], "pit_bonus": 0,
        "playing": int(game.playing),
        "hand_roem": [0, 0], "hand_stuk": [0, 0], "hand_needs_trick": False,
        "nat": _NAT["none"], "multiplier": 1, "zero_bonus": 0,
        "bidder": int(bidder),
    }


def engine_position(game: Game) -> EnginePosition:
    """The game's position as `_engine` takes it: sides ordered (playing, defenders), and
    the tricks the bidder of a ledig round took (0 in a trump round). It runs before every
    search of a Game's position: one pass over the tricks for both teams (Game.taken_by_team;
    a pass a team took three times the search after 22 cards)."""
    by_team = game.taken_by_team()
    playing, defenders = by_team[game.playing], by_team[1 - game.playing]
    pts, roem, won = zip(playing, defenders)
    return ([sorted([c.index for c in hand]) for hand in game.hands],
            [c.index for c in game.current_trick], int(game.trick_leader),
            pts, roem, won, 8 - len(game.tricks),
            game.bidder_tricks() if game.bidder is not None else 0)


# Measured fastest on the 2-core benchmark machine: a table that stays in the processor's
# caches beats a bigger one that holds more (2 MB against 16 MB, warm: 0.90x time on points,
# 0.87x on score, 0.95x on solve_moves). Raise it for the heaviest positions.
DEFAULT_TABLE_MB = 2
# The largest table a Solver accepts: a terabyte, far past any machine it runs on.
MOST_TABLE_MB = 1 << 20


class Solver:
    """A reusable solver that owns its transposition table (`table_mb` megabytes).

    The search releases the GIL, so threads with a Solver each run in parallel. A Solver
    shared between threads stays correct (a lock lets one search run at a time), but only
    one of them searches at any moment.

    >>> s = Solver(rules=Rules.rotterdam(), table_mb=8)
    >>> res = s.solve(Deal.random(5), trump="H", leader="N", playing="NS")
    >>> res.value == -s.solve(Deal.random(5), trump="H", leader="N", playing="EW").value
    True
    """

    def __init__(self, rules: Optional[RulesLike] = None, table_mb: int = DEFAULT_TABLE_MB) -> None:
        table_mb = whole_number("table_mb (megabytes)", table_mb, 1, MOST_TABLE_MB)
        self.rules = check_rules(rules)
        self.table_mb = table_mb
        try:
            self.engine = _engine.Engine(table_mb)
        except MemoryError:
            raise SolverError(f"table_mb={table_mb}: the {table_mb} MB transposition table "
                              f"asked for could not be had (not enough memory); ask for "
                              f"fewer megabytes") from None
        self.search_seconds = 0.0   # time spent in engine calls, for callers that measure it
        # configure + search is one step: two threads interleaving them would search one
        # round's position under the other round's rules.
        self._lock = threading.RLock()
        # What the last calls' arguments came to (_engine_round): (the rules as given, the
        # Solver's, the deal where the spec reads it, the round).
        self._calls: Dict[Tuple[Any, ...], Tuple[Any, Rules, Optional[Deal],
                                                 "_EngineRound"]] = {}

    def __reduce__(self) -> Tuple[Type["Solver"], Tuple[Rules, int]]:
        # A pickled Solver (say, sent to a worker process) arrives with a fresh, empty table.
        return (Solver, (self.rules, self.table_mb))

    # -- public API ----------------------------------------------------------------------------

    def game(self, deal: Deal, trump: Optional[SuitLike] = None, leader: Optional[SeatLike] = None,
             playing: Optional[TeamLike] = None, rules: Optional[RulesLike] = None,
             played: CardsLike = (), *, bidder: Optional[SeatLike] = None,
             dummy: Optional[SeatLike] = None) -> Game:
        """The position after `played` (IllegalPlayError names an illegal card). A ledig round
        takes `bidder`, a three-player round `dummy` (see `Game`)."""
        game = Game(deal, trump, leader, playing, check_rules(rules, self.rules), bidder=bidder,
                    dummy=dummy)
        played = _read_once(played)
        # The engine checks the cards where what the round comes to for it is kept from call
        # to call: not for rules given as a dict, nor where it reads each deal (roem or stuk
        # in hand: some 0.6 ms a deal, ten times the Game's replay).
        cheap = (bidder is None and dummy is None and not spec_reads_deal(game.rules)
                 and (rules is None or isinstance(rules, (Rules, str))))
        if not (cheap and self._placed_if_legal(game, rules, played)):
            game.replay(played)
        return game

    def _placed_if_legal(self, game: Game, rules: Optional[RulesLike], played: CardsLike) -> bool:
        """Whether the engine, in C, finds every card of `played` held and legal in turn from
        `game`'s start (`rules`: as the call gave them, by which the round is kept); if so,
        they are placed on `game` without the Game's own checks, which cost half of a replay.
        False (nothing placed) otherwise: the Game's replay then says what is wrong."""
        round_ = self._engine_round(game.deal, game.trump, game.leader, game.playing, rules,
                                    "points")
        cards = None if round_ is None else _played_indices(played)
        if round_ is None or cards is None:
            return False
        if self._position_after(round_, game.deal, cards) is None:
            return False
        for card in cards:
            game.place(ALL_CARDS[card])
        return True

    def solve(self, deal: Deal, trump: Optional[SuitLike] = None, leader: Optional[SeatLike] = None,
              playing: Optional[TeamLike] = None, rules: Optional[RulesLike] = None,
              played: CardsLike = (), objective: str = "points", *,
              bidder: Optional[SeatLike] = None, dummy: Optional[SeatLike] = None) -> SolveResult:
        """The exact value of the round from the playing team's view, with one optimal line:
        at each turn the first card that keeps the value in the order the search prefers
        (a function of the position alone, so the same whatever the table holds). `line`
        gives the line that takes the first such card in card order instead.

        A ledig round (`Rules(contract="ledig")`) takes `bidder=` instead of the playing
        team (and `trump` only under `ledig_trump="chosen"`); its value counts the bidder's
        tricks (docs/rules.md, "Ledig"), and `totals` are 0. A three-player round takes
        `dummy=`."""
        check_objective(objective)
        played = _read_once(played)
        if bidder is None and dummy is None:
            result = self._solved_in_engine(deal, trump, leader, playing, rules, played,
                                            objective)
            if result is not None:
                return result
        return self._solved_on_game(
            self.game(deal, trump, leader, playing, rules, played, bidder=bidder, dummy=dummy),
            objective)

    def _solved_on_game(self, game: Game, objective: str) -> SolveResult:
        """solve of `game`'s position (a Game of this call's own, which it plays on)."""
        before = list(game.played)
        value, line, nodes = self._solved_at(_Position.of_game(self, game),
                                             objective_of(game.rules, objective))
        if len(line) != 32 - len(before):     # pragma: no cover - an engine bug
            raise AssertionError(f"the line {line} does not reach the end of the round")
        for card in line:
            game.place(card)    # this call's own Game; the engine's line is legal: no checks
        totals = ByTeam({team: game.tally(team).total for team in Team})
        return SolveResult(objective, value, totals, line, nodes, before)

    def _solved_at(self, at: _Position, aim: Objective) -> Tuple[Value, List[Card], int]:
        """(value, optimal line, nodes searched) of `at`'s position."""
        # Held across the whole solve, so that the count is this solve's nodes alone when
        # other threads share the Solver (the lock is reentrant: each engine call takes it too).
        with self._lock:
            start = self.engine.nodes
            if aim.solve_metric is not None:
                # One engine call: the root's search finds the line's first card too.
                value, cards = at.call(self.engine.solve, aim.solve_metric)
                line = [ALL_CARDS[c] for c in cards]
            else:
                value = aim.value(at)
                line = self._keeping_at(at, aim, value, 32, preferred=True)
            return value, line, self.engine.nodes - start

    def solve_moves(self, deal: Deal, trump: Optional[SuitLike] = None,
                    leader: Optional[SeatLike] = None, playing: Optional[TeamLike] = None,
                    rules: Optional[RulesLike] = None, played: CardsLike = (),
                    objective: str = "points", *, bidder: Optional[SeatLike] = None,
                    dummy: Optional[SeatLike] = None) -> Dict[Card, Value]:
        """{card: value} for every legal card of the player to move: the value if that card
        is played and both sides play optimally afterwards."""
        check_objective(objective)
        played = _read_once(played)
        if bidder is None and dummy is None:
            values = self._moves_replayed_in_engine(deal, trump, leader, playing, rules, played,
                                                    objective)
            if values is not None:
                return values
        game = self.game(deal, trump, leader, playing, rules, played, bidder=bidder, dummy=dummy)
        return self.move_values(game, objective)

    # -- the cost of a call --------------------------------------------------------------------

    def _moves_replayed_in_engine(self, deal: Deal, trump: Optional[SuitLike],
                                  leader: Optional[SeatLike], playing: Optional[TeamLike],
                                  rules: Optional[RulesLike],
                                  played: CardsLike, objective: str
                                  ) -> Optional[Dict[Card, Value]]:
        """solve_moves with the cards played replayed and checked by the engine, in C: the
        pure-Python Game and its replay cost several times the search of a late position.
        None when an argument is not plainly good (a card not held or illegal, anything
        unreadable): the Game's path then says what is wrong, as it always has."""
        round_ = self._engine_round(deal, trump, leader, playing, rules, objective)
        cards = None if round_ is None else _played_indices(played)
        if round_ is None or cards is None:
            return None
        metric = round_.aim.metric
        if metric is not None:      # a plain metric: replayed and searched in one call
            bad, values = self._configured(round_.spec, self.engine.moves_after, deal._masks,
                                           round_.leader, cards, metric)
            if bad >= 0:
                return None
            return {ALL_CARDS[card]: value for card, value in values}
        at = self._position_after(round_, deal, cards)
        if at is None:
            return None
        if at.is_over:
            return {}
        return {ALL_CARDS[card]: value for card, value in round_.aim.move_values(at).items()}

    def _solved_in_engine(self, deal: Deal, trump: Optional[SuitLike],
                          leader: Optional[SeatLike], playing: Optional[TeamLike],
                          rules: Optional[RulesLike], played: CardsLike, objective: str
                          ) -> Optional[SolveResult]:
        """solve with the cards played, the line and the totals it ends with played in the
        engine: the Game's replay and tallies cost twenty times the search after 22 cards.
        None where _moves_replayed_in_engine would be: the Game's path then solves it."""
        round_ = self._engine_round(deal, trump, leader, playing, rules, objective)
        cards = None if round_ is None else _played_indices(played)
        if round_ is None or cards is None:
            return None
        if round_.aim.solve_metric is not None:     # replayed, solved and scored in one call
            with self._lock:        # the nodes of this call alone, as in _solved_at
                nodes = self.engine.nodes
                bad, value, indices, (ours, theirs) = self._configured(
                    round_.spec, self.engine.solve_after, deal._masks, round_.leader, cards,
                    round_.aim.solve_metric)
                nodes = self.engine.nodes - nodes
            if bad >= 0:
                return None
            line = [ALL_CARDS[card] for card in indices]
        else:
            at = self._position_after(round_, deal, cards)
            if at is None:
                return None
            value, line, nodes = self._solved_at(at, round_.aim)
            ours, theirs = at.totals_after(line)
        team = round_.playing
        totals = ByTeam({Team.NS: ours if team == Team.NS else theirs,
                         Team.EW: ours if team == Team.EW else theirs})
        return SolveResult(objective, value, totals, line, nodes,
                           [ALL_CARDS[card] for card in cards])

    def _position_after(self, round_: "_EngineRound", deal: Deal, cards: bytes
                        ) -> Optional["_Position"]:
        """The position after `cards`, replayed and checked in the engine; None after a card
        that is not held or not legal (the Game's path names it)."""
        bad, position = self._configured(round_.spec, self.engine.position_after, deal._masks,
                                         round_.leader, cards)
        if bad >= 0 or position is None:
            return None
        return _Position(self, round_.spec, position, round_.trump)

    def _spec_of(self, game: Game) -> Dict[str, Any]:
        """engine_spec(game), kept as a call's round is where the round is one the calls
        with a deal take (a trump round of four)."""
        if game.rules.contract != "ledig" and game.dummy is None:
            round_ = self._engine_round(game.deal, game.trump, game.leader, game.playing,
                                        game.rules, "points")
            if round_ is not None:
                return round_.spec
        return engine_spec(game)

    def _engine_round(self, deal: Deal, trump: Optional[SuitLike], leader: Optional[SeatLike],
                      playing: Optional[TeamLike], rules: Optional[RulesLike], objective: str
                      ) -> Optional["_EngineRound"]:
        """What a call's round comes to for the engine, or None when an argument is not
        plainly good (the Game's path then says what is wrong)."""
        if not isinstance(deal, Deal) or trump is None or leader is None or playing is None:
            return None
        # Loops over positions (of one round, or of many deals under one contract) pass the
        # same arguments but the deal or the cards played: what the rest comes to is kept by
        # the identity of the rules, immutable (not rules given as a dict, which may change),
        # and of the deal where the rules read it. The types are in the key, as 1 == True but
        # only one of them is a suit.
        key = (trump, type(trump), leader, type(leader), playing, type(playing), id(rules),
               objective)
        known, kept = None, rules is None or isinstance(rules, (Rules, str))
        if kept:
            try:
                known = self._calls.get(key)
            except TypeError:   # an argument that does not hash: worked out below, or refused
                kept = False
            if known is not None and known[2] is not None:  # rules that read it: per deal
                known = self._calls.get(key + (id(deal),))
        if (known is not None and known[0] is rules and known[1] is self.rules
                and (known[2] is None or known[2] is deal)):
            return known[3]
        try:
            checked = check_rules(rules, self.rules)
            aim = objective_of(checked, objective)
            suit, seat, team = Suit.parse(trump), Seat.parse(leader), Team.parse(playing)
            spec = engine_spec(Game(deal, suit, seat, team, checked))
        except (SolverError, TypeError, ValueError):
            return None
        round_ = _EngineRound(spec, int(seat), team, suit, aim)
        if kept:
            reads_deal = spec_reads_deal(checked)
            kept_as = (rules, self.rules, deal if reads_deal else None, round_)
            keep(self._calls, key, kept_as)
            if reads_deal:
                keep(self._calls, key + (id(deal),), kept_as)
        return round_

    # -- on a Game -------------------------------------------------------------------------------

    def value(self, game: Game, objective: str = "points") -> Value:
        """The exact value of `game`'s position for `objective`."""
        check_game(game)
        return objective_of(game.rules, objective).value(_Position.of_game(self, game))

    def move_values(self, game: Game, objective: str = "points") -> Dict[Card, Value]:
        """{card: value} for every legal card of the player to move in `game`."""
        check_game(game)
        aim = objective_of(game.rules, objective)
        if game.is_over:
            return {}
        return {ALL_CARDS[card]: value
                for card, value in aim.move_values(_Position.of_game(self, game)).items()}

    def make_value(self, game: Game, points: Optional[int] = None) -> bool:
        """Whether the playing team makes it in `game`'s position: read from `points`, the
        position's points value when the caller knows it, where the rules let points decide
        it (`make_line`); searched otherwise."""
        check_game(game)
        line = objective_of(game.rules, "points").make_line
        if points is not None:
            points = whole_number("points", points)
            if line is not None:
                return points >= line
        return bool(self.value(game, "make"))

    def value_and_make(self, game: Game, objective: str = "points") -> Tuple[Value, bool]:
        """(the value for `objective`, whether the playing team makes it), searching `make`
        only when the value does not decide it."""
        value = self.value(game, objective)
        line = objective_of(game.rules, objective).make_line
        if line is not None:
            return value, value >= line
        return value, bool(self.value(game, "make"))

    def move_values_and_makes(self, game: Game, objective: str = "points"
                              ) -> Tuple[Dict[Card, Value], Dict[Card, bool]]:
        """({card: value for `objective`}, {card: whether the playing team makes it}) for
        every legal card of the player to move, searching `make` only when the values do not
        decide it."""
        values = self.move_values(game, objective)
        line = objective_of(game.rules, objective).make_line
        if line is not None:
            return values, {card: value >= line for card, value in values.items()}
        return values, {card: bool(made) for card, made in self.move_values(game, "make").items()}

    def line(self, game: Game, objective: str, value: Value) -> List[Card]:
        """One optimal continuation: at each turn the first card (in card order) that keeps
        `value`, the value of `game`'s position."""
        check_game(game)
        aim = objective_of(game.rules, objective)
        at = _Position.of_game(self, game)
        aim.check_value(at, value)
        return self._keeping_at(at, aim, value, 32)

    def best_card(self, game: Game, objective: str = "points") -> Card:
        """The first card in card order that is optimal for the player to move: the card
        `first_optimal_card` picks from the move values, found by the engine with fewer tests
        than the values take."""
        check_game(game)
        aim = objective_of(game.rules, objective)
        if game.is_over:
            raise SolverError("the round is over: there is no card to play")
        at = _Position.of_game(self, game)
        return self._keeping_at(at, aim, aim.value(at), 1)[0]

    def _keeping(self, game: Game, objective: str, value: Value, most: int,
                 preferred: bool = False) -> List[Card]:
        """Up to `most` cards along the line that keeps `value` from `game`'s position."""
        return self._keeping_at(_Position.of_game(self, game), objective_of(game.rules, objective),
                                value, most, preferred)

    def _keeping_at(self, at: _Position, aim: Objective, value: Value, most: int,
                    preferred: bool = False) -> List[Card]:
        """Up to `most` cards along the line that keeps `value`, found by the engine: at each
        turn the first card that does in card order, or in the search's preferred order."""
        if at.is_over:
            return []
        metric, low, high = aim.keep(at.trump, value)
        cards = at.call(self.engine.line, metric, low, high, most, preferred)
        if not cards:    # pragma: no cover - would mean the engine is inconsistent
            raise AssertionError(f"no card keeps the value {value}")
        return [ALL_CARDS[c] for c in cards]

    def _search(self, game: Game, metric: int, alpha: int = -INFINITY,
                beta: int = INFINITY) -> int:
        return _Position.of_game(self, game).search(metric, alpha, beta)

    def _configured(self, spec: Dict[str, Any], method: Callable[..., Returned],
                    *args: Any) -> Returned:
        """`method(*args)` on the engine configured with `spec`: one step under the lock, its
        time counted in search_seconds."""
        with self._lock:
            start = time.perf_counter()
            try:
                self.engine.configure(spec)
                return method(*args)
            finally:
                self.search_seconds += time.perf_counter() - start


class _Position:
    """The engine's searches of one position on a Solver (its round's spec and the position
    as the engine takes it), as an `Objective` asks for them (`objectives.PositionSearch`)."""

    def __init__(self, solver: Solver, spec: Dict[str, Any], position: Sequence[Any],
                 trump: Optional[Suit]) -> None:
        # position: as engine_position or Engine.position_after gives it
        self._solver = solver
        self._spec = spec
        self._position = position
        self._trump = trump

    @classmethod
    def of_game(cls, solver: Solver, game: Game) -> "_Position":
        return cls(solver, solver._spec_of(game), engine_position(game), game.trump)

    @property
    def trump(self) -> Optional[Suit]:
        return self._trump

    @property
    def is_over(self) -> bool:
        return bool(self._position[6] == 0)     # no trick left

    def call(self, method: Callable[..., Returned], *args: Any) -> Returned:
        """`method(position, *args)` on the engine configured for the position's round."""
        return self._solver._configured(self._spec, method, self._position, *args)

    def search(self, metric: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        return self.call(self._solver.engine.search, metric, alpha, beta)

    def child_values(self, metric: int) -> List[Tuple[int, int]]:
        return self.call(self._solver.engine.child_values, metric)

    def child_bounds(self, metric: int, alpha: int, beta: int) -> List[Tuple[int, int]]:
        return self.call(self._solver.engine.child_bounds, metric, alpha, beta)

    def totals_after(self, line: List[Card]) -> Tuple[int, int]:
        """Each side's total once `line` is played out (side 0 the playing team's)."""
        return self.call(self._solver.engine.totals_after, [card.index for card in line])


class _EngineRound(NamedTuple):
    """A call's round as the engine takes it (but the hands, the deal's own sets): its spec,
    the leader of trick 1, the playing team, the trump, and the objective under the round's
    rules."""

    spec: Dict[str, Any]
    leader: int
    playing: Team
    trump: Suit
    aim: Objective


def _read_once(played: CardsLike) -> CardsLike:
    """An iterator of cards played as a list: the engine's path may stop part-way and hand
    the cards played to the Game's path, which would then miss those already read."""
    if isinstance(played, (str, list, tuple)):
        return played
    try:
        return list(played)
    except TypeError:
        return played       # not cards at all: the Game's path names what is wrong


_INDEX_OF: Dict[Any, int] = {card: card.index for card in ALL_CARDS}
_INDEX_OF.update({str(card): card.index for card in ALL_CARDS})


def _played_indices(played: CardsLike) -> Optional[bytes]:
    """The cards played as the engine's indices, when each is a Card or its plain text (as
    str(card) writes it); None for anything else, which the Game's path reads (or refuses)."""
    if isinstance(played, str):
        played = played.split(" ") if played else []
    elif not isinstance(played, (list, tuple)):
        return None         # solve_moves has made any other sequence of cards a list
    try:
        indices = [card.index for card in played if type(card) is Card]
    except TypeError:
        return None
    if len(indices) == len(played):
        return bytes(indices)
    try:            # text among them
        return bytes([_INDEX_OF[card] for card in played])
    except (KeyError, TypeError):
        return None


def optimal_cards(values: Mapping[Card, Value]) -> List[Card]:
    """The cards with the best value, in card order; `values` are seen from the player to
    move (`value_for_team`), so higher is better.

    >>> optimal_cards({Card.parse("HA"): 10, Card.parse("C7"): 10, Card.parse("D7"): -4})
    [Card.parse('C7'), Card.parse('HA')]
    """
    best = max(values.values())
    return sorted(card for card, value in values.items() if value == best)


def first_optimal_card(values: Mapping[Card, Value]) -> Card:
    """The first card in card order with the best value; `values` seen from the player to
    move. `Solver.best_card` gives the same card without computing every value."""
    return optimal_cards(values)[0]


def solve(deal: Deal, trump: Optional[SuitLike] = None, leader: Optional[SeatLike] = None,
          playing: Optional[TeamLike] = None, rules: Optional[RulesLike] = None,
          played: CardsLike = (), objective: str = "points", table_mb: int = DEFAULT_TABLE_MB,
          *, bidder: Optional[SeatLike] = None, dummy: Optional[SeatLike] = None) -> SolveResult:
    """Solve one position with this thread's warm `Solver` (`warm_solver`); see
    `Solver.solve`."""
    return warm_solver(rules, table_mb).solve(deal, trump, leader, playing, rules, played, objective,
                                         bidder=bidder, dummy=dummy)


def solve_moves(deal: Deal, trump: Optional[SuitLike] = None, leader: Optional[SeatLike] = None,
                playing: Optional[TeamLike] = None, rules: Optional[RulesLike] = None,
                played: CardsLike = (), objective: str = "points",
                table_mb: int = DEFAULT_TABLE_MB, *, bidder: Optional[SeatLike] = None,
                dummy: Optional[SeatLike] = None) -> Dict[Card, Value]:
    """Values of every legal card of the player to move, from this thread's warm `Solver`
    (`warm_solver`); see `Solver.solve_moves`."""
    return warm_solver(rules, table_mb).solve_moves(deal, trump, leader, playing, rules, played,
                                               objective, bidder=bidder, dummy=dummy)


# Each thread's warm Solver: a fresh one costs a new table (page faults on megabytes), several
# times the search of a late position, on every call of the package's functions.
_WARM = threading.local()
_NAMED_RULES: Dict[Optional[str], Rules] = {}


def warm_solver(rules: Optional[RulesLike] = None, table_mb: int = DEFAULT_TABLE_MB) -> Solver:
    """The calling thread's own `Solver`, kept between calls, with `rules` as its default
    rules: `solve`, `solve_moves` and the analyses given no solver use it, so that a loop over
    them costs what a loop over one `Solver` costs. A thread keeps one table, of the size last
    asked for (asking for another size frees the old one), and it goes with the thread.

    Values never depend on what the table holds; only `SolveResult.nodes` does (a position
    solved before takes fewer nodes).

    >>> warm_solver() is warm_solver(Rules.rotterdam())
    True
    """
    solver: Optional[Solver] = getattr(_WARM, "solver", None)
    # The common case first, at the cost of a few tests: the thread's Solver already has
    # this table, and the rules are a Rules (else they are read below).
    if (solver is not None and type(rules) is Rules and type(table_mb) is int
            and table_mb == solver.table_mb):
        solver.rules = rules
        return solver
    table_mb = whole_number("table_mb (megabytes)", table_mb, 1, MOST_TABLE_MB)
    # The same Rules object for the same rules named the same way: the Solver keeps what a
    # round's rules come to by the object's identity.
    if rules is None or isinstance(rules, str):
        checked = _NAMED_RULES.get(rules)
        if checked is None:
            checked = _NAMED_RULES[rules] = check_rules(rules)
    else:
        checked = check_rules(rules)
    if solver is None or solver.table_mb != table_mb:
        _WARM.solver = solver = None     # the old table goes before the new one is allocated
        solver = _WARM.solver = Solver(checked, table_mb)
    solver.rules = checked
    return solver
