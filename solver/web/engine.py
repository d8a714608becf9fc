"""The board's engine room: two bounded thread pools with one warm `Solver` per thread, a
bounded cache of the positions already solved, and the single-dummy jobs that can be stopped.

Clicks (a position's card values) and long work (tables, bid checks, single-dummy views,
reports) run on separate pools, so that a long job never holds up the values of a click. The
search releases the GIL: the threads of a pool search in parallel.
"""
from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple, TypeVar

from ..analysis.view import ViewAnalysis, analyse_view_until
from ..engine.search import Solver, warm_solver
from ..model.cards import Card
from ..model.game import Game
from ..model.scoring import Value

Result = TypeVar("Result")

# Positions kept with their card values: a round's positions are at most 33, so this keeps the
# last few hundred rounds explored, in about 12 MB (about 1.5 KB a position).
CACHE_POSITIONS = 8_000


class Stopped(Exception):
    """A single-dummy job was stopped because its reader went away."""


def round_key(game: Game) -> Tuple[Hashable, ...]:
    """What decides a round's values: the deal and rules as their short text (not the objects
    each request parsed), trump, leader, playing team, bidder and dummy."""
    return (game.deal.to_pbn(), game.trump, game.leader, game.playing, repr(game.rules),
            game.bidder, game.dummy)


def position_key(game: Game, round_: Optional[Tuple[Hashable, ...]] = None
                 ) -> Tuple[Hashable, ...]:
    """What decides a position's card values: the round (`round_key`, given when the caller
    has it) and the cards played."""
    return (round_ if round_ is not None else round_key(game)) + (tuple(game.played),)


class Engine:
    """The pools, the warm solvers and the cache the board's routes share.

    `clicks` threads answer a position's values (default: the cores), `long_work` threads the
    tables, bid checks, single-dummy views and reports (default: the cores), each job of a
    single-dummy view searching its worlds on `view_workers` threads. The counters
    (`jobs_started`, `jobs_stopped`, `jobs_finished`) and `idle` (set while no single-dummy
    job runs) let a test see that a job stopped, without waiting on the clock.
    """

    def __init__(self, clicks: Optional[int] = None, long_work: Optional[int] = None,
                 cache_positions: int = CACHE_POSITIONS, view_workers: Optional[int] = None
                 ) -> None:
        cores = os.cpu_count() or 1
        self.clicks = ThreadPoolExecutor(clicks or cores, thread_name_prefix="board-click")
        self.long_work = ThreadPoolExecutor(long_work or cores, thread_name_prefix="board-work")
        # A single-dummy batch spreads its worlds over this many threads (the batch's own),
        # so that one player's table comes at the speed of every core; at most `long_work`
        # jobs run at once, which bounds the threads searching.
        self.view_workers = view_workers or cores
        self._cache: "OrderedDict[Tuple[Hashable, ...], Dict[Card, Value]]" = OrderedDict()
        self._cache_lock = threading.Lock()
        self.cache_positions = cache_positions
        self._jobs_lock = threading.Lock()
        self.jobs_running = 0
        self.jobs_started = self.jobs_stopped = self.jobs_finished = 0
        self.idle = threading.Event()
        self.idle.set()

    def solver(self) -> Solver:
        """This thread's Solver, made on first use and kept warm (`warm_solver`)."""
        return warm_solver()

    async def click(self, work: Callable[..., Result], *args: Any) -> Result:
        """`work(*args)` on the clicks pool, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.clicks, work, *args)

    async def long(self, work: Callable[..., Result], *args: Any) -> Result:
        """`work(*args)` on the long-work pool, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.long_work, work, *args)

    def close(self) -> None:
        """Stop the pools (the jobs already running finish)."""
        self.clicks.shutdown(wait=False, cancel_futures=True)
        self.long_work.shutdown(wait=False, cancel_futures=True)

    # -- card values, cached ----------------------------------------------------------------

    def move_values(self, game: Game, round_: Optional[Tuple[Hashable, ...]] = None
                    ) -> Dict[Card, Value]:
        """{card: points value for the playing team} for every legal card of `game`'s
        position, from the cache or this thread's Solver; `round_` is its `round_key`, when
        the caller asks for many positions of one round."""
        key = position_key(game, round_)
        with self._cache_lock:
            known = self._cache.get(key)
            if known is not None:
                self._cache.move_to_end(key)
                return known
        values = self.solver().solve_moves(
            game.deal, game.trump, game.leader, game.playing, game.rules, list(game.played),
            bidder=game.bidder, dummy=game.dummy)
        with self._cache_lock:
            self._cache[key] = values
            while len(self._cache) > self.cache_positions:
                self._cache.popitem(last=False)
        return values

    @property
    def cached_positions(self) -> int:
        """How many positions the cache holds."""
        with self._cache_lock:
            return len(self._cache)

    # -- single dummy, in batches that can be stopped -----------------------------------------

    def single_dummy(self, game: Game, worlds: int, batch: int, seconds: float, seed: int,
                     stop: threading.Event, report: Callable[[ViewAnalysis, bool], None]
                     ) -> None:
        """The view of the player to move over up to `worlds` worlds, `batch` at a time,
        `report(view, last)` after each batch; it ends after `seconds` (at the end of a batch)
        and is stopped (Stopped) at the next batch once `stop` is set."""
        started = time.monotonic()

        def decided(view: ViewAnalysis) -> bool:
            if stop.is_set():
                raise Stopped()
            out_of_time = time.monotonic() - started >= seconds
            report(view, out_of_time)
            return out_of_time

        view = analyse_view_until(game, decided, batch, worlds, seed, workers=self.view_workers)
        if len(view.worlds) >= worlds:      # the last batch is not given to `decided`
            if stop.is_set():
                raise Stopped()
            report(view, True)

    def start_job(self, work: Callable[[], bool]) -> "Future[None]":
        """`work` (a single-dummy job, which says whether it finished rather than being
        stopped) on the long-work pool, counted as running from now, queued or not, until it
        ends."""
        self._job_begins()

        def run() -> None:
            finished = False
            try:
                finished = work()
            finally:
                self._job_ends(finished)
        return self.long_work.submit(run)

    def _job_begins(self) -> None:
        with self._jobs_lock:
            self.jobs_running += 1
            self.jobs_started += 1
            self.idle.clear()

    def _job_ends(self, finished: bool) -> None:
        with self._jobs_lock:
            self.jobs_running -= 1
            if finished:
                self.jobs_finished += 1
            else:
                self.jobs_stopped += 1
            if self.jobs_running == 0:
                self.idle.set()

    def counters(self) -> Dict[str, int]:
        """The single-dummy jobs so far and the positions cached."""
        with self._jobs_lock:
            jobs: List[Tuple[str, int]] = [
                ("running", self.jobs_running), ("started", self.jobs_started),
                ("stopped", self.jobs_stopped), ("finished", self.jobs_finished)]
        return {**dict(jobs), "cached_positions": self.cached_positions}
