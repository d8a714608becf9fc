"""A duplicate arena: `play_arena(team_a, team_b, deals, seed)`.

Every deal is played at two tables with the same cards, trump, leader and playing team:
team a sits North-South at the first and East-West at the second, so the luck of the cards
cancels and what is left is the difference the bots make.

Deal i of an arena with seed s is deal i of `klaverjas labels --seed s`: the cards are
`Deal.random(derive(s, i, 0))`, and trump, the leader of trick 1 and the playing team are
drawn in that order from `SplitMix64(derive(s, i, 1))`: round i of `RoundStream(s)`
(`solver.model.rounds`).
A bot at seat `seat` of table `t` of deal i starts the round with `reset(derive(s, i, t,
seat))`, and single-dummy judging draws its worlds from `derive(s, i, 10 + t)`: the result
depends on the seed alone, never on the number of worker processes (the times per move
apart, and bots with a time budget, whose choices depend on the machine's speed).

>>> result = play_arena("rule", "random", deals=2, seed=1, workers=1)
>>> result.deals, result.bots["a"].name, result.bots["b"].name
(2, 'rule', 'random')
"""
from __future__ import annotations

import os
import time
from functools import partial
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from .._pool import WorkerPool
from .._progress import progress_bar
from ..model.worlds import MOST_WORLDS
from ..bots import Bot
from ..engine.search import Solver
from ..errors import BotError, whole_number
from ..model.cards import Seat, Team
from ..model.rounds import RoundStream
from ..model.rules import Rules, RulesLike, check_rules, require_four_player_trump
from ..model.streams import derive
from .names import BotLike, make_bot
from .result import ArenaResult, BotStats, DealResult, mean_and_ci95, quantile
from .table import play_table

# Each team's moves at one deal: (trick, dd loss, sd loss, seconds, whether it had a choice,
# whether it was the first card of its table: the round's first lead).
MoveRow = Tuple[int, int, float, float, bool, bool]
DealOutcome = Tuple[DealResult, Dict[str, List[MoveRow]]]

MOST_DEALS = 10 ** 7
# Worlds each card is judged over single dummy by default: about 1 s of one core a deal (both
# tables) on the 2-core machine of docs/benchmarks.md, some 60% on top of `pimc:32` against
# `rule` and nine times `rule` against `random`; 0 turns it off.
SD_WORLDS = 8
SIDES = ("a", "b")
# Team a's seats at each table: North-South at table 0, East-West at table 1.
A_SEATS = (Team.NS, Team.EW)


class _Arena:
    """What one process needs to play deals: a bot per seat for each team, and a Solver."""

    def __init__(self, team_a: BotLike, team_b: BotLike, seed: int, rules: Rules,
                 sd_worlds: int) -> None:
        self.bots = {side: [make_bot(spec) for _ in range(2)]
                     for side, spec in zip(SIDES, (team_a, team_b))}
        self.seed, self.rules, self.sd_worlds = seed, rules, sd_worlds
        self.solver = Solver(rules)
        self.rounds = RoundStream(seed, rules)

    def names(self) -> Tuple[str, str]:
        return self.bots["a"][0].name, self.bots["b"][0].name

    def play_deal(self, deal_id: int) -> DealOutcome:
        deal, trump, leader, playing, _, _ = self.rounds.round(deal_id)
        assert trump is not None        # a trump round: play_arena takes no other
        moves: Dict[str, List[MoveRow]] = {side: [] for side in SIDES}
        score_diffs, points_diffs = [], []
        for table, a_team in enumerate(A_SEATS):
            seated: List[Bot] = []
            side_of: Dict[Seat, str] = {}
            for seat in Seat:
                side = "a" if seat.team == a_team else "b"
                bot = self.bots[side][seat // 2]     # N and E the first, S and W the second
                bot.reset(derive(self.seed, deal_id, table, int(seat)))
                seated.append(bot)
                side_of[seat] = side
            result = play_table(deal, trump, leader, playing, seated, self.solver,
                                self.sd_worlds, derive(self.seed, deal_id, 10 + table))
            for i, m in enumerate(result.moves):
                moves[side_of[m.seat]].append((m.trick, m.dd_loss, m.sd_loss, m.seconds,
                                               m.choices > 1, i == 0))
            score_diffs.append(result.scores[a_team] - result.scores[a_team.other])
            points_diffs.append(result.points[a_team] - result.points[a_team.other])
        return (DealResult(deal_id, (score_diffs[0], score_diffs[1]),
                           (points_diffs[0], points_diffs[1])), moves)


def play_arena(team_a: BotLike, team_b: BotLike, deals: int = 100, seed: int = 0,
               rules: Optional[RulesLike] = None, workers: Optional[int] = None,
               sd_worlds: int = SD_WORLDS, progress: bool = False) -> ArenaResult:
    """Team a against team b over `deals` duplicate deals (see the module's docstring).

    `team_a`, `team_b`: bot names (`solver.arena.names`: "random", "rule", "dd", "pimc:32",
    "policy:PATH", "openspiel:ismcts") or Bots, copied for every seat. `workers`: processes
    that play deals at once (default: all cores). `sd_worlds`: judge every card with a choice
    single dummy too, over this many worlds its player could not tell from the real one
    (`SD_WORLDS`; 0: double dummy only, the fastest). `progress`: a progress bar on stderr.
    """
    start = time.perf_counter()
    deals = whole_number("deals", deals, 1, MOST_DEALS, error=BotError)
    seed = whole_number("seed", seed, 0, 2 ** 64 - 1, error=BotError)
    sd_worlds = whole_number("sd_worlds", sd_worlds, 0, MOST_WORLDS, error=BotError)
    workers = (os.cpu_count() or 1) if workers is None else whole_number(
        "workers", workers, 1, error=BotError)
    rules = require_four_player_trump(check_rules(rules), "the arena", BotError)
    arena = _Arena(team_a, team_b, seed, rules, sd_worlds)   # bad names fail here, at once
    names = arena.names()
    outcomes = _outcomes(arena, (team_a, team_b), deals, min(workers, deals))
    bar = progress_bar(deals, "deal", progress)
    per_deal: List[DealResult] = []
    rows: Dict[str, List[MoveRow]] = {side: [] for side in SIDES}
    try:
        for result, moves in outcomes:
            per_deal.append(result)
            for side in SIDES:
                rows[side] += moves[side]
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(f"a - b {mean_and_ci95([d.score_diff for d in per_deal])[0]:+.1f}")
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:
            close()
        if bar is not None:
            bar.close()
    stats = {side: _stats(name, rows[side], sd_worlds > 0) for side, name in zip(SIDES, names)}
    return ArenaResult(seed, rules.to_dict(), sd_worlds, stats, per_deal,
                       round(time.perf_counter() - start, 3))


def _outcomes(arena: _Arena, teams: Tuple[BotLike, BotLike], deals: int,
              workers: int) -> Iterable[DealOutcome]:
    """Each deal's outcome in deal order, from this process or from `workers` processes."""
    if workers == 1:
        return (arena.play_deal(i) for i in range(deals))
    return _in_processes(arena, teams, deals, workers)


def _arena_work(teams: Tuple[BotLike, BotLike], seed: int, rules: Rules,
                sd_worlds: int) -> Callable[[int], DealOutcome]:
    """What a worker process does with each deal number: play it, with bots and a Solver of
    its own made once here."""
    return _Arena(teams[0], teams[1], seed, rules, sd_worlds).play_deal


def _in_processes(arena: _Arena, teams: Tuple[BotLike, BotLike], deals: int,
                  workers: int) -> WorkerPool[int, DealOutcome]:
    # Ordered: the result is the same whatever finishes first.
    return WorkerPool(partial(_arena_work, teams, arena.seed, arena.rules, arena.sd_worlds),
                      range(deals), workers, BotError, _WORKER_DIED, ordered=True)


_WORKER_DIED = ("a worker process of the arena died (killed, or out of memory): run it again, "
                "with fewer --workers if memory is short")


def _stats(name: str, rows: List[MoveRow], with_sd: bool) -> BotStats:
    chosen = [r for r in rows if r[4]]
    count = len(chosen)
    by_trick = []
    for trick in range(1, 9):
        losses = [r[1] for r in chosen if r[0] == trick]
        by_trick.append(round(sum(losses) / len(losses), 6) if losses else 0.0)
    ms = [r[3] * 1000 for r in rows]
    leads = [r for r in rows if r[5]]
    return BotStats(
        name, count,
        round(sum(r[1] for r in chosen) / count, 6) if count else 0.0,
        round(sum(r[1] == 0 for r in chosen) / count, 6) if count else 1.0,
        by_trick,
        (round(sum(r[2] for r in chosen) / count, 6) if count else 0.0) if with_sd else None,
        round(quantile(ms, 0.5), 3), round(quantile(ms, 0.95), 3), len(leads),
        round(sum(r[1] == 0 for r in leads) / len(leads), 6) if leads else None)
