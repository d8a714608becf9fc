"""PIMCBot: perfect-information Monte Carlo. The legal card with the best mean double-dummy
value over worlds the seat cannot tell apart from the real one (`analyse_view`).

The worlds of a move are drawn with a seed mixed from the bot's seed and the number of cards
played, so a bot's choice depends only on its seed and what it saw. With `time_budget`
(seconds per move) it adds worlds in small batches and stops when the time is up (or at
`worlds`): faster, but then the choice depends on the machine's speed too. With `margin`
(points) it adds worlds in the same batches until the best card so far is, at 97.5%
confidence against each other card, less than `margin` worse than any of them
(`ViewAnalysis.is_clear`): few worlds where the choice is plain, all of them where it is
close; the choice then still depends on the seed alone. With `belief="play"` the worlds are
drawn in proportion to how likely the other players' cards so far were in each
(`solver.analysis.beliefs`): its name then ends in "+play".

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> PIMCBot(worlds=8, seed=1).act(game, "E")
Card.parse('HK')
"""
from __future__ import annotations

import time
from typing import Optional, Union

from ..analysis.beliefs import BeliefLike, PlayBelief, belief_name, belief_of
from ..analysis.view import ViewAnalysis, analyse_view, analyse_view_until
from ..model.worlds import MOST_WORLDS
from ..engine.search import Solver
from ..errors import SolverError, quote, whole_number
from ..model.cards import Card, Seat
from ..model.game import Game
from ..model.scoring import check_objective
from ..model.streams import derive
from .bot import Bot

# Worlds added at a time under a time budget: small, so that the budget is kept closely.
BUDGET_BATCH = 4
# Under belief="play", the worlds weighed for each one played over: the analyses weigh 8, but
# drawing them costs a bot more time a move than solving them (docs/guides/beliefs.md).
BELIEF_CANDIDATES = 2


class PIMCBot(Bot):
    """The best mean card over `worlds` sampled worlds (`analyse_view`) for `objective`.

    `workers`: threads solving the worlds of one move (default 1, this bot's own Solver;
    None for all cores). `time_budget`: seconds per move, None for no limit. `margin`: stop
    adding worlds once the choice is clear to within this many points (of the objective),
    None to use all `worlds`. `belief`: how the worlds are drawn, "uniform" (the default) or
    "play" (or a belief object, `solver.analysis.beliefs`).
    """

    def __init__(self, worlds: int = 32, seed: Optional[int] = None,
                 time_budget: Optional[float] = None, objective: str = "points",
                 workers: Optional[int] = 1, margin: Optional[float] = None,
                 belief: BeliefLike = "uniform") -> None:
        self.worlds = whole_number("worlds", worlds, 1, MOST_WORLDS)
        self.time_budget = _budget(time_budget)
        self.margin = _margin(margin)
        check_objective(objective)
        self.objective = objective
        self.workers = None if workers is None else whole_number("workers", workers, 1)
        self.belief = belief_of(belief)      # checked now, and the network read once
        if belief == "play" and isinstance(self.belief, PlayBelief):
            self.belief = self.belief.with_candidates(BELIEF_CANDIDATES)
        named = belief_name(belief)
        self.name = (f"pimc:{self.worlds}" + ("" if time_budget is None else f"@{time_budget:g}")
                     + ("" if margin is None else f"~{margin:g}")
                     + ("" if named == "uniform" else f"+{named}"))
        self._solver: Optional[Solver] = None
        super().__init__(seed)

    def choose(self, game: Game, seat: Seat) -> Card:
        return self.view(game).best_cards[0]

    def view(self, game: Game) -> ViewAnalysis:
        """The analysis behind the card for the player to move in `game`, as this bot sees
        it (`game` should be `seat_view` of the real round: `act` passes it so)."""
        seed = derive(self.seed, len(game.played))
        solver = self._solver_for(game)
        if self.time_budget is None and self.margin is None:
            return analyse_view(game, worlds=self.worlds, seed=seed, objective=self.objective,
                                workers=self.workers, solver=solver, belief=self._belief())
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        margin = self.margin

        def decided(view: ViewAnalysis) -> bool:
            return ((deadline is not None and time.perf_counter() >= deadline)
                    or (margin is not None and view.is_clear(margin)))

        return analyse_view_until(game, decided,
                                  batch=min(BUDGET_BATCH, self.worlds), most=self.worlds,
                                  seed=seed, objective=self.objective, workers=self.workers,
                                  solver=solver, belief=self._belief())

    def _belief(self) -> BeliefLike:
        # "uniform" as the name, so that the analyses take the model's own sampler.
        return "uniform" if self.belief.name == "uniform" else self.belief

    def _solver_for(self, game: Game) -> Optional[Solver]:
        # One Solver kept between moves (its table stays warm) when the bot works alone.
        if self.workers != 1:
            return None
        if self._solver is None or self._solver.rules != game.rules:
            self._solver = Solver(game.rules)
        return self._solver


def _margin(points: Union[None, float, int]) -> Optional[float]:
    if points is None:
        return None
    if isinstance(points, bool) or not isinstance(points, (int, float)) or not points > 0 \
            or points == float("inf"):
        raise SolverError(f"margin must be a number of points above 0 or None, got "
                          f"{quote(points)}")
    return float(points)


def _budget(seconds: Union[None, float, int]) -> Optional[float]:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise SolverError(f"time_budget must be a number of seconds above 0 or None, got "
                          f"{quote(seconds)}")
    return float(seconds)
