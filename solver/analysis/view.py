"""Single dummy: what a player could know. Each legal card's double-dummy value averaged over
the worlds that player cannot tell apart from the real one (perfect-information Monte Carlo).

>>> from solver import Deal, Game, analyse_view
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> view = analyse_view(game, worlds=8, seed=1)        # E to play, E's view
>>> view.best_cards
[Card.parse('HK')]
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..model.cards import Card, CardLike, Seat, SeatLike, Team
from ..model.deal import Deal
from ..errors import SolverError, reading_fields, whole_number
from ..model.game import Game, check_game
import numpy as np

from ..batch import PositionBatch, deal_row, played_row
from ..batch.search import MOST_MARGIN
from .parallel import check_solver
from ..engine.objectives import objective_of
from ..engine.search import Solver
from ..model.cards import ALL_CARDS
from ..model.scoring import check_objective, value_for_team
from ..model.streams import derive
from .verdicts import PairedLoss, paired_loss
from ..model.worlds import MOST_WORLDS, same_round
from ..model.bidding import Draaikaart
from .beliefs import BeliefLike, belief_name, sample_worlds


@dataclass(frozen=True)
class CardStats:
    """One card over the worlds: mean value for the seat's team and its standard error, the
    share of worlds where it is optimal, and where the team reaches its aim after it."""

    mean: float
    stderr: float
    optimal: float
    makes: float

    def to_dict(self) -> Dict[str, float]:
        """Plain JSON-ready values."""
        return {"mean": self.mean, "stderr": self.stderr, "optimal": self.optimal,
                "makes": self.makes}

    @classmethod
    def from_dict(cls, d: Dict[str, float]) -> "CardStats":
        """The statistics `to_dict` wrote."""
        with reading_fields("card stats", d):
            return cls(d["mean"], d["stderr"], d["optimal"], d["makes"])


@dataclass(frozen=True, repr=False)
class ViewAnalysis:
    """Every legal card of `seat`, judged from what `seat` could know. Values are from the
    view of `seat`'s team (for `make`, 1 when the team reaches its aim: the playing team
    makes it, the defenders make it nat). `values` holds every legal card's value in each
    world, in the order of `worlds`: the paired comparisons of `paired_loss` use them.
    `belief` names how the worlds were drawn (`solver.analysis.beliefs`): "uniform", every
    world alike, or "play", in proportion to how likely the other players' plays were."""

    seat: Seat
    objective: str
    cards: Dict[Card, CardStats]
    worlds: List[Deal]
    seed: int
    values: Dict[Card, List[int]] = field(default_factory=dict)
    belief: str = "uniform"

    @property
    def team(self) -> Team:
        """The team of `seat`: the point of view of every value."""
        return self.seat.team

    @property
    def best_cards(self) -> List[Card]:
        """The cards with the highest mean value."""
        top = max(s.mean for s in self.cards.values())
        return [c for c, s in self.cards.items() if s.mean >= top - 1e-9]

    def is_clear(self, margin: float) -> bool:
        """Whether the first of `best_cards` is, at 97.5% confidence against each other card
        (the high end of its `paired_loss` interval), less than `margin` worse than every
        other legal card: a player may stop adding worlds and play it.

        >>> from solver import Deal, Game
        >>> game = Game(Deal.random(1), "H", "E", "NS")      # trick 1: close calls
        >>> [analyse_view(game, worlds=n, seed=1).is_clear(5.0) for n in (8, 64)]
        [False, True]
        """
        if len(self.cards) == 1:
            return True
        if not self.values:
            raise SolverError("this view has no per-world values (it was read from JSON "
                              "written without them): analyse the position again")
        return paired_loss(self.values, self.best_cards[0]).high < margin

    def loss(self, card: CardLike) -> float:
        """The expected cost of `card` against the best card, from this seat's view."""
        return max(s.mean for s in self.cards.values()) - self.cards[Card.parse(card)].mean

    def paired_loss(self, card: CardLike) -> PairedLoss:
        """The loss of `card` against the best card, compared world by world, with its 95%
        interval (`solver.analysis.verdicts`).

        >>> from solver import Deal, Game
        >>> game = Game(Deal.random(1), "H", "E", "NS")
        >>> view = analyse_view(game, worlds=8, seed=1)
        >>> loss = view.paired_loss("HK")             # the best card loses nothing
        >>> loss.loss, loss.low, loss.best_cards
        (0.0, 0.0, [Card.parse('HK')])
        """
        if not self.values:
            raise SolverError("this view has no per-world values (it was read from JSON "
                              "written without them): analyse the position again")
        return paired_loss(self.values, card)

    def __str__(self) -> str:
        lines = [f"{self.seat} to play, {len(self.worlds)} worlds ({self.belief} belief), "
                 f"{self.objective} for {self.team}: mean ± standard error, optimal in, makes "
                 f"it in"]
        for card, s in sorted(self.cards.items(), key=lambda kv: -kv[1].mean):
            lines.append(f"  {card.to_str(True):<4} {s.mean:+8.1f} ± {s.stderr:5.1f}  "
                         f"{s.optimal:6.1%}  {s.makes:6.1%}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        means = ", ".join(f"{c}: {s.mean:+.1f}" for c, s in self.cards.items())
        return (f"ViewAnalysis(seat={self.seat}, {len(self.worlds)} worlds, {self.belief} "
                f"belief, {self.objective}: {means})")

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values; `ViewAnalysis.from_dict` reads them back."""
        return {"seat": self.seat.name, "team": self.team.name, "objective": self.objective,
                "seed": self.seed, "belief": self.belief, "cards": {str(c): s.to_dict() for c, s in self.cards.items()},
                "best_cards": [str(c) for c in self.best_cards],
                "worlds": [w.to_pbn() for w in self.worlds],
                "values": {str(c): v for c, v in self.values.items()}}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "ViewAnalysis":
        """The analysis `to_dict` wrote."""
        with reading_fields("a view analysis", d):
            return cls(Seat.parse(d["seat"]), d["objective"],
                       {Card.parse(c): CardStats.from_dict(s) for c, s in d["cards"].items()},
                       [Deal.from_pbn(w) for w in d["worlds"]], d["seed"],
                       {Card.parse(c): list(v) for c, v in d.get("values", {}).items()},
                       d.get("belief", "uniform"))


def world_values(solver: Solver, game: Game, world: Deal, objective: str
                 ) -> Tuple[Dict[Card, int], Dict[Card, bool]]:
    """({card: value}, {card: team reaches its aim}) for the player to move in `world`, both
    from the view of that player's team."""
    play = same_round(game, world)
    play.replay(game.played)
    values, makes = solver.move_values_and_makes(play, objective)
    team = play.to_move.team
    # int(): a `make` value becomes 1 or 0, so that it can be averaged like the others.
    return ({card: int(value_for_team(value, team, play.playing)) for card, value in values.items()},
            {card: value_for_team(made, team, play.playing) for card, made in makes.items()})


def analyse_view(game: Game, seat: Optional[SeatLike] = None, worlds: int = 64, seed: int = 0,
                 objective: str = "points", workers: Optional[int] = None,
                 solver: Optional[Solver] = None, belief: BeliefLike = "uniform",
                 bidding: Optional[Draaikaart] = None) -> ViewAnalysis:
    """Each legal card of the player to move, averaged over `worlds` deals that player cannot
    tell apart from the real one (sampled with `seed`, uniformly or under `belief`: "play"
    draws them in proportion to how likely the other players' plays, and `bidding`'s calls
    where the round had draaikaart bidding, were in each; `solver.analysis.beliefs`). `seat`, when given, must be
    the player to move (at a table of three or two, the seat of the person who plays that
    hand is taken too: the view is his). The worlds are solved on `workers` threads (default:
    all cores), or by `solver` alone when one is given."""
    check_game(game)
    if game.is_over:
        raise SolverError("the round is over: no card is left to judge")
    seat = game.to_move if seat is None else Seat.parse(seat)
    if seat != game.to_move and seat not in _same_player(game):
        raise SolverError(f"seat {seat} is not to play: {game.to_move} is")
    seat = game.to_move
    check_objective(objective)
    worlds = whole_number("worlds", worlds, 1, MOST_WORLDS)
    sampled = sample_worlds(game, seat, worlds, seed, belief=belief, bidding=bidding)
    return _view(game, seat, objective, seed, sampled,
                 _solve_worlds(game, sampled, objective, workers, solver), belief_name(belief))


def _same_player(game: Game) -> Tuple[Seat, ...]:
    """The seats played by the person who plays the hand to move."""
    if game.rules.players == 2:
        return game.to_move.team.seats
    if game.rules.players == 3 and game.dummy is not None and game.to_move.team == game.playing:
        return (game.dummy, game.dummy.partner)
    return (game.to_move,)


def analyse_view_until(game: Game, decided: Callable[[ViewAnalysis], bool], batch: int,
                       most: int, seed: int = 0, objective: str = "points",
                       workers: Optional[int] = None,
                       solver: Optional[Solver] = None, belief: BeliefLike = "uniform",
                       bidding: Optional[Draaikaart] = None) -> ViewAnalysis:
    """`analyse_view` for the player to move, sampling `batch` worlds at a time until
    `decided(view)` or `most` worlds. Batch i is `sample_worlds(game, seat, batch,
    derive(seed, i), belief=belief)`, so the stream of worlds depends only on `seed`."""
    check_game(game)
    if game.is_over:
        raise SolverError("the round is over: no card is left to judge")
    check_objective(objective)
    batch = whole_number("batch", batch, least=1)
    most = whole_number("most", most, batch, max(batch, MOST_WORLDS))
    seat = game.to_move
    sampled: List[Deal] = []
    results: List[Tuple[Dict[Card, int], Dict[Card, bool]]] = []
    while True:
        more = sample_worlds(game, seat, min(batch, most - len(sampled)),
                             derive(seed, len(sampled) // batch), belief=belief, bidding=bidding)
        sampled += more
        results += _solve_worlds(game, more, objective, workers, solver)
        view = _view(game, seat, objective, seed, sampled, results, belief_name(belief))
        if len(sampled) >= most or decided(view):
            return view


def _solve_worlds(game: Game, worlds: List[Deal], objective: str, workers: Optional[int],
                  solver: Optional[Solver]) -> List[Tuple[Dict[Card, int], Dict[Card, bool]]]:
    """world_values for every world, all in one batch (solver.batch): the worlds' positions
    are replayed and searched in C, on `workers` threads, or on this thread for a `solver`
    (whose time in searches counts them). A world drawn twice (by a belief) is solved once."""
    check_solver(solver)
    if len(set(worlds)) < len(worlds):
        unique = list(dict.fromkeys(worlds))
        solved = dict(zip(unique, _solve_worlds(game, unique, objective, workers, solver)))
        return [solved[world] for world in worlds]
    batch = _world_batch(game, worlds, workers, solver)
    values = batch.values(objective)
    aim = objective_of(game.rules, objective)
    line = aim.make_line
    if aim.is_make:
        makes = values
    elif line is None:
        makes = batch.values("make")
    elif game.to_move.team == game.playing:
        makes = values >= line
    else:
        # The defenders reach their aim where the playing team's value (-value) is below it.
        makes = values > -line
    if solver is not None:
        solver.search_seconds += batch.search_seconds
    legal = [(card, card.index) for card in game.legal_cards()]
    return [({card: int(row[i]) for card, i in legal}, {card: bool(made[i]) for card, i in legal})
            for row, made in zip(values.tolist(), makes.tolist())]


def _world_batch(game: Game, worlds: List[Deal], workers: Optional[int],
                 solver: Optional[Solver]) -> PositionBatch:
    """The position of `game` in each world, as one batch."""
    deal = np.array([deal_row(world) for world in worlds], dtype=np.int8).reshape(-1, 32)
    played = np.tile(played_row(game.played), (len(worlds), 1))
    return PositionBatch(deal, -1 if game.trump is None else int(game.trump), int(game.leader),
                         int(game.playing), played, game.rules, workers, solver=solver,
                         bidder=None if game.bidder is None else int(game.bidder),
                         dummy=None if game.dummy is None else int(game.dummy))


def best_view_card(game: Game, seat: Optional[SeatLike] = None, worlds: int = 64,
                   seed: int = 0, objective: str = "points", workers: Optional[int] = None,
                   solver: Optional[Solver] = None) -> Card:
    """A card with the highest mean value over the same worlds as `analyse_view` (one of its
    `best_cards`), for a player that needs its move and not every card's mean: each world is
    searched for the leading card exactly and for the others only until they are shown no
    better, and a card's bounds are tightened, then refined to exact values, only while
    they leave it a chance to be best."""
    check_game(game)
    if game.is_over:
        raise SolverError("the round is over: no card is left to judge")
    seat = game.to_move if seat is None else Seat.parse(seat)
    if seat != game.to_move and seat not in _same_player(game):    # as analyse_view
        raise SolverError(f"seat {seat} is not to play: {game.to_move} is")
    seat = game.to_move
    check_objective(objective)
    worlds = whole_number("worlds", worlds, 1, MOST_WORLDS)
    check_solver(solver)
    legal = [card.index for card in game.legal_cards()]
    if len(legal) == 1:
        return ALL_CARDS[legal[0]]
    batch = _world_batch(game, sample_worlds(game, seat, worlds, seed), workers, solver)
    try:
        if objective_of(game.rules, objective).searched.is_make:
            # A make, or an objective searched as one (ledig's score: +-ledig_bonus).
            totals = batch.values("make")[:, legal].sum(0)
            return ALL_CARDS[legal[int(np.argmax(totals))]]
        return ALL_CARDS[_best_by_bounds(batch, objective, legal,
                                         len(game.played) < _ROUNDS_BEFORE)]
    finally:
        if solver is not None:
            solver.search_seconds += batch.search_seconds


# Worlds whose every card is searched exactly before the others are bounded: a card chosen
# from one world was beaten in the others' totals most of the time.
_SCOUTING_WORLDS = 4
# A card whose mean deficit in the scouted worlds is at most this (points a world) is searched
# exactly in every world: 0.94x the nodes of 10 decisions at trick 1 (2, 3, 7 and 10 points:
# 0.98x, 0.97x, 0.95x, 0.94x; 0, 3 and 8 points with the rounds below: 1.02x, 1.01x, 1.02x).
_CLOSE = 5
# The other worlds are bounded in rounds, the first ending at this share of the worlds (16
# of the 28 after the scouting of 32), the second at the last. A card's slack is how far the
# total of its bounds may still exceed the lead's values (its scouted deficit, less what its
# bounds took over the lead's values so far): while it lasts, its null windows are at the
# lead's value; once it is spent, below it by _CATCH_UP times the lost slack a world left.
# With the tightening below, 0.91x the nodes of 20 decisions at trick 1 (0.89x of 40 more)
# against a first bound at half the scouted deficit a world. Each round waits for its slowest
# world on two threads, so rounds are few: 4 rounds of 7 worlds took 0.90x the nodes but
# their busiest engine's nodes summed over the calls were 0.97x against 0.93x (1, 3 or 7
# even rounds: 0.93x, 0.92x, 0.92x the nodes). With 4 rounds: catching up once or thrice the
# lost slack 0.91x, 0.92x; the windows above the lead's value by 0.2 of the slack a world
# 0.92x; at least a quarter or an eighth of the scouted deficit below it 0.96x, 0.96x; a
# reserve of 3 or 6 points a world 0.93x, 0.94x.
_ROUND_ENDS = (0.625,)
# The rounds pay where the searches are long, before this many cards are played: at trick 2
# one round took the same nodes (0.999x, 20 decisions) and at trick 3 1.02x, with a call
# fewer a decision (some 0.17 ms of Python, a tenth of a decision's time from trick 5).
_ROUNDS_BEFORE = 4
_CATCH_UP = 2
# A rival whose bounds' total still exceeds the lead's gets up to _TIGHTENINGS null windows
# a world, each _TIGHTENING_SHARE times its excess a world below its bound, in a cold table
# with the lead's exact value given, before its exact values: about 0.3 of an exact search a
# world. Worlds where a window failed are within a step of their bound and are not tried
# again; a step of more than _MOST_STEP points is not tried at all. With 4 rounds, without the
# tightening 1.01x; 1, 2 or 4 tightenings 0.95x, 0.91x, 0.90x; a share of 1.5 or 3: 0.915x,
# 0.93x; a most step of 25 or 60 points or none: 0.91x, 0.91x, 0.915x (the 20 decisions).
_TIGHTENINGS = 3
_TIGHTENING_SHARE = 2.0
_MOST_STEP = 40


def _best_by_bounds(batch: PositionBatch, objective: str, legal: List[int],
                    rounds: bool = True) -> int:
    """The legal card with the highest total over the batch's worlds. Every world holds an
    exact value or an upper bound of each card (PositionBatch.against); a card is refined
    to exact values only while its bounds' total exceeds the best exact total, so the card
    returned has an exact total no lower than any other card's. Without `rounds`, the worlds
    after the scouting are bounded in one round."""
    # Every card's exact values in the first few worlds choose the card to beat.
    known = np.arange(min(_SCOUTING_WORLDS, batch.count))
    scouted: np.ndarray = batch.values(objective, known).astype(np.int64)
    lead = max(legal, key=lambda card: (scouted[:, card].sum(), -card))
    deficit = scouted[:, lead].sum() - scouted.sum(0)
    rest = np.arange(len(known), batch.count)
    # A card this close to the lead is searched exactly in each world, in the table the
    # lead's search left warm: its bounds mostly failed high and took two or three searches,
    # and a rival's exact values later went to a cold table.
    exactly = [card for card in legal if card != lead and deficit[card] <= _CLOSE * len(known)]
    # The proof needs each card's bounds' total at most the lead's total, not each bound at
    # most the lead's value: the scouted deficit is slack that the bounds may spend.
    slack = deficit.copy()
    parts: List[Tuple[np.ndarray, np.ndarray]] = []
    left = len(rest)
    ends = [max(len(known), int(end * batch.count)) for end in _ROUND_ENDS] if rounds else []
    for part in np.split(rest, [end - len(known) for end in ends]):
        if not len(part):
            continue
        margin: np.ndarray = np.zeros((len(part), 32), dtype=np.int64)
        for card in legal:
            if slack[card] < 0:
                margin[:, card] = min(MOST_MARGIN, -(_CATCH_UP * int(slack[card])) // left)
        values, found = batch.against(objective, np.full(len(part), lead, dtype=np.int8), part,
                                      row_margins=margin, exactly=exactly)
        got: np.ndarray = values.astype(np.int64)
        slack -= (got - got[:, [lead]]).sum(0)
        left -= len(part)
        parts.append((got, found))
    upper = np.concatenate([scouted] + [got for got, _ in parts])
    exact = np.concatenate([np.ones_like(scouted, dtype=bool)] + [found for _, found in parts])
    # Where a tightening window failed: the card's value is within a step of its bound.
    tight = np.zeros_like(exact)
    tightened: List[int] = []
    best_total = int(upper[:, lead].sum())
    while True:
        totals = upper.sum(0)
        rivals = [card for card in legal if card != lead and totals[card] > best_total]
        if not rivals:
            return lead
        rival = max(rivals, key=lambda card: (totals[card], -card))
        rows = np.nonzero(~exact[:, rival])[0]
        loose = rows[~tight[rows, rival]]
        step = math.ceil((int(totals[rival]) - best_total) * _TIGHTENING_SHARE
                         / max(1, len(loose)))
        if len(loose) and tightened.count(rival) < _TIGHTENINGS and step <= _MOST_STEP:
            # A null window a world below the rival's bound, the lead's exact value given: a
            # fraction of the rival's exact search, where its bounds were merely loose.
            tightened.append(rival)
            lead_values = upper[loose, lead]
            margin = np.zeros((len(loose), 32), dtype=np.int64)
            margin[:, rival] = np.clip(lead_values - (upper[loose, rival] - step),
                                       -MOST_MARGIN, MOST_MARGIN)
            values, _ = batch.against(objective, np.full(len(loose), lead, dtype=np.int8),
                                      loose, row_margins=margin, lead_values=lead_values,
                                      cards=[rival])
            # A window that failed says nothing of the bound: INFINITY, left as it was.
            upper[loose, rival] = np.minimum(upper[loose, rival], values[:, rival])
            tight[loose, rival] |= values[:, rival] >= MOST_MARGIN
            continue
        # The rival's exact values only: bounding the other cards against it again cost
        # more than it saved.
        values, known = batch.against(objective, np.full(len(rows), rival, dtype=np.int8),
                                      rows, lead_only=True)
        # Every entry is the value or an upper bound of it: the least is the tightest.
        upper[rows] = np.where(known, values, np.minimum(upper[rows], values))
        exact[rows] |= known
        total = int(upper[:, rival].sum())
        if total > best_total or (total == best_total and rival < lead):
            lead, best_total = rival, total


def _view(game: Game, seat: Seat, objective: str, seed: int, sampled: List[Deal],
          results: List[Tuple[Dict[Card, int], Dict[Card, bool]]],
          belief: str = "uniform") -> ViewAnalysis:
    cards: Dict[Card, CardStats] = {}
    per_world: Dict[Card, List[int]] = {}
    for card in game.legal_cards():
        values = [r[0][card] for r in results]
        mean = sum(values) / len(values)
        spread = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
        optimal = sum(r[0][card] == max(r[0].values()) for r in results) / len(results)
        makes = sum(r[1][card] for r in results) / len(results)
        cards[card] = CardStats(mean, math.sqrt(spread / len(values)), optimal, makes)
        per_world[card] = values
    return ViewAnalysis(seat, objective, cards, sampled, seed, per_world, belief)
