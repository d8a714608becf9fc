"""Many positions in one call: NumPy arrays in the labels' schema in, every card's value out.

Each position is a row: `deal` int8[N, 32] (the seat, 0..3 for N E S W, dealt each card, by
card index `suit * 8 + rank`), `trump` (suit 0..3 for C D H S, as `Suit`), `leader` (the seat leading
trick 1) and `playing` (team 0 NS, 1 EW) int8[N], and `played` int8[N, 32]: the card indices
played so far, padded with -1. A ledig round (rules contract "ledig") has a `bidder` column
too (its seat; `trump` is -1 under ledig_trump "none"), and a round at a table of three a
`dummy` column (the silent partner's seat), as the labels have. `move_values` returns
int16[N, 32]: the value of each legal card of the player to move for an objective, seen from
that player's team (the labels' `values`), and NOT_LEGAL (-32768) for every other card. The
rows are checked first (a bad one raises the package's error naming its row), then searched in C without the GIL, on `workers` threads
each with its own engine and table, with no Python between the positions.

>>> import numpy as np
>>> from solver import Deal
>>> deal = np.zeros((1, 32), dtype=np.int8)
>>> for seat, hand in enumerate(Deal.random(1).hands):
...     deal[0, [c.index for c in hand]] = seat
>>> played = np.full((1, 32), -1, dtype=np.int8)
>>> values = move_values(deal, trump=[1], leader=[1], playing=[0], played=played)
>>> values.shape, values.dtype, int((values[0] != NOT_LEGAL).sum())
((1, 32), dtype('int16'), 8)
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from typing import Any, ContextManager, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .engine._compiled import engine as _engine
from .engine.search import (DEFAULT_TABLE_MB, MOST_TABLE_MB, Solver, engine_metric, engine_spec,
                            make_test)
from .errors import DealError, IllegalPlayError, RulesError, SolverError, whole_number
from .model.cards import ALL_CARDS, Seat, Suit, Team
from .model.deal import Deal
from .model.game import Game
from .model.rules import Rules, RulesLike, check_rules
from .model.scoring import check_objective

NOT_LEGAL = -32768      # the value of a card that is not legal (the labels' NOT_LEGAL)
# Rows a thread takes at a time: small enough that the threads finish together, large
# enough that the hand-over costs nothing against the searches. Rows early in the round
# (at most _EARLY cards played: searches of milliseconds) are cut finer, into
# _CHUNKS_PER_THREAD chunks a thread, so that a few rows (the worlds of a view at trick 1)
# keep every thread busy; later rows search in microseconds, where a thread more costs more
# than it gains unless it has a whole chunk.
_CHUNK = 64
_CHUNKS_PER_THREAD = 4
_EARLY = 12
# Rows checked in one engine call: their specs' Params are built for the call.
_CHECKED_TOGETHER = 4096
_BITS = (np.uint64(1) << np.arange(32, dtype=np.uint64))


def move_values(deal: Any, trump: Any, leader: Any, playing: Any, played: Any = None,
                objective: str = "points", rules: Optional[RulesLike] = None,
                workers: Optional[int] = None, table_mb: int = DEFAULT_TABLE_MB, *,
                bidder: Any = None, dummy: Any = None) -> np.ndarray:
    """int16[N, 32]: for each row, every legal card's value for `objective` ("points",
    "score", or "make": 1 when the team reaches its aim) seen from the team to move, and
    NOT_LEGAL for the other cards (all of them once the round is over). `trump`, `leader` and
    `playing` (and `bidder` of a ledig round, `dummy` at a table of three) may each be one
    number for every row; `played` None means trick 1, nothing played. The rows are searched
    on `workers` threads (default: all cores)."""
    check_objective(objective)
    return PositionBatch(deal, trump, leader, playing, played, rules, workers,
                         table_mb, bidder=bidder, dummy=dummy).values(objective)


class PositionBatch:
    """Checked rows of positions (as `move_values` takes them) and the engines that search
    them, for callers that search the same rows more than once (solver.analysis.view)."""

    def __init__(self, deal: Any, trump: Any, leader: Any, playing: Any, played: Any = None,
                 rules: Optional[RulesLike] = None, workers: Optional[int] = None,
                 table_mb: int = DEFAULT_TABLE_MB, solver: Optional[Solver] = None, *,
                 bidder: Any = None, dummy: Any = None) -> None:
        """`solver`, when given, searches every row on its own engine and table (warm from
        its earlier calls), on the calling thread: `workers` and `table_mb` are then unused."""
        self.rules = check_rules(rules)
        self.ledig = self.rules.contract == "ledig"
        for name, column, needed in (("bidder", bidder, self.ledig),
                                     ("dummy", dummy, self.rules.players == 3)):
            if needed and column is None:
                raise RulesError(f"solver.batch: {_round_of(self.rules)} needs the {name} "
                                 f"column ({name}=, a seat 0..3 per row or one for all)")
        self.solver = solver
        table_mb = whole_number("table_mb (megabytes)", table_mb, 1, MOST_TABLE_MB)
        threads = (os.cpu_count() or 1) if workers is None else whole_number("workers",
                                                                             workers, 1)
        self.rows = _Rows(deal, trump, leader, playing, played, bidder, dummy, self.ledig)
        self.count = self.rows.count
        self.search_seconds = 0.0     # time in engine calls
        self.engines: List[Any] = []
        self._nodes_before = 0
        self._chunk = _CHUNK
        if self.count == 0:
            return
        self.specs, self.params_of = _specs(self.rows, self.rules)
        if int((self.rows.played >= 0).sum(1).min()) <= _EARLY:
            self._chunk = max(1, min(_CHUNK, self.count // (_CHUNKS_PER_THREAD * threads)))
        self.engines = [solver.engine] if solver is not None else [
            _engine.Engine(table_mb) for _ in range(min(threads, -(-self.count // self._chunk)))]
        with self._solver_lock():
            _check_plays(self.engines[0], self.rules, self.rows, self.specs, self.params_of)
        self._nodes_before = sum(int(engine.nodes) for engine in self.engines)

    def _solver_lock(self) -> ContextManager[Any]:
        """The given Solver's lock (its engine searches for one thread at a time)."""
        return self.solver._lock if self.solver is not None else nullcontext()

    @property
    def nodes(self) -> int:
        """Nodes searched for this batch so far, by all its engines."""
        return sum(int(engine.nodes) for engine in self.engines) - self._nodes_before

    def values(self, objective: str = "points", rows: Optional[np.ndarray] = None
               ) -> np.ndarray:
        """int16[len(rows), 32]: `move_values` of the rows (default: all), in their order."""
        check_objective(objective)
        if objective == "score" and self.ledig:
            # +ledig_bonus for the team that reaches its aim (make), -ledig_bonus otherwise.
            made = self._search("make", rows, None, None)[0]
            bonus = self.rules.ledig_bonus
            return np.where(made == NOT_LEGAL, NOT_LEGAL,
                            np.where(made == 1, bonus, -bonus)).astype(np.int16)
        return self._search(objective, rows, None, None)[0]

    def against(self, objective: str, lead: np.ndarray, rows: Optional[np.ndarray] = None,
                margin: Optional[Sequence[int]] = None) -> Tuple[np.ndarray, np.ndarray]:
        """(int16[n, 32], bool[n, 32]) for the rows (default: all) and lead[i], a legal card
        of row rows[i], for "points" or "score": lead's exact value, and for each other legal
        card its exact value (True) where it is better than lead, else an upper bound on it
        no higher than lead's value (False); both seen from the team to move. margin[card]
        (default 0): the bound is first tried that much lower than lead's value, which
        tightens it where the card is that much worse."""
        if objective not in ("points", "score") or (objective == "score" and self.ledig):
            raise SolverError(f"against() takes points or the score of a trump round, not "
                              f"{objective!r}" + (" of a ledig round" if self.ledig else ""))
        return self._search(objective, rows, np.ascontiguousarray(lead, dtype=np.int8),
                            None if margin is None else [int(m) for m in margin])

    def _search(self, objective: str, rows: Optional[np.ndarray], lead: Optional[np.ndarray],
                margin: Optional[List[int]]) -> Tuple[np.ndarray, np.ndarray]:
        picked = np.arange(self.count) if rows is None else np.asarray(rows, dtype=np.intp)
        count = len(picked)
        out: np.ndarray = np.full((count, 32), NOT_LEGAL, dtype=np.int16)
        exact: np.ndarray = np.zeros((count, 32), dtype=np.uint8)
        if count == 0:
            return out, exact.astype(bool)
        rules, specs = self.rules, self.specs
        thresholds: List[Optional[int]] = [None] * len(specs)
        if objective == "make":
            tests = [make_test(rules, Suit(spec["trump"]) if spec["trump"] < len(Suit) else None)
                     for spec in specs]
            metric = int(tests[0][0])       # the rules' alone: the same for every spec
            thresholds = [threshold for _, threshold in tests]
        else:
            metric = int(engine_metric(rules, objective))
        params_of = np.ascontiguousarray(self.params_of[picked])
        hands = np.ascontiguousarray(self.rows.hands[picked])
        leader = np.ascontiguousarray(self.rows.leader[picked])
        played = np.ascontiguousarray(self.rows.played[picked])
        size = self._chunk
        chunks = [(start, min(start + size, count)) for start in range(0, count, size)]
        # Each thread owns an engine: a thread takes the next chunk when it is done with one.
        free = list(self.engines)

        def search(chunk: Tuple[int, int]) -> int:
            engine = free.pop()
            try:
                start, stop = chunk
                extra = {} if lead is None else {"lead": lead[start:stop],
                                                  "exact": exact[start:stop], "margin": margin}
                used, local = _local_specs(params_of[start:stop])
                return int(engine.search_rows([specs[i] for i in used], local,
                                              [thresholds[i] for i in used],
                                              hands[start:stop], leader[start:stop],
                                              played[start:stop], metric, out[start:stop],
                                              **extra))
            finally:
                free.append(engine)

        began = time.perf_counter()
        if len(self.engines) == 1 or len(chunks) == 1:
            with self._solver_lock():
                for chunk in chunks:
                    search(chunk)
        else:
            with ThreadPoolExecutor(min(len(self.engines), len(chunks))) as pool:
                list(pool.map(search, chunks))
        self.search_seconds += time.perf_counter() - began
        theirs = (self.rows.to_move_team[picked] != self.rows.playing[picked])[:, None]
        flip = theirs & (out != NOT_LEGAL)
        if objective == "make":
            # 1 when the playing team makes it: the defenders' aim is the other way round.
            out[flip] = 1 - out[flip]
        else:
            out[flip] = -out[flip]
        return out, exact.astype(bool)


class _Rows:
    """The checked arrays of a batch, in the engine's types."""

    def __init__(self, deal: Any, trump: Any, leader: Any, playing: Any, played: Any,
                 bidder: Any = None, dummy: Any = None, ledig: bool = False) -> None:
        deal = _integers("deal", deal, 2)
        if deal.shape[1:] != (32,):
            raise DealError(f"deal must have 32 columns (the seat of each card), got shape "
                            f"{deal.shape}")
        self.count = count = deal.shape[0]
        if count and (deal.min() < 0 or deal.max() > 3):
            row = int(np.nonzero((deal < 0).any(1) | (deal > 3).any(1))[0][0])
            raise DealError(f"row {row}: deal holds {deal[row].tolist()}, not seats 0..3")
        sizes = np.stack([(deal == seat).sum(1) for seat in range(4)], axis=1)
        if count and (sizes != 8).any():
            row = int(np.nonzero((sizes != 8).any(1))[0][0])
            raise DealError(f"row {row}: deal gives the seats {sizes[row].tolist()} cards, "
                            f"not 8 each")
        self.deal = deal.astype(np.int8)
        # -1: no trump, which only a ledig round may have.
        self.trump = _column("trump", trump, count, 3, least=-1 if ledig else 0)
        self.leader = _column("leader", leader, count, 3)
        self.playing = _column("playing", playing, count, 1)
        # -1 where a round has none.
        self.bidder = np.full(count, -1, np.int8) if bidder is None else _column(
            "bidder", bidder, count, 3)
        self.dummy = np.full(count, -1, np.int8) if dummy is None else _column(
            "dummy", dummy, count, 3)
        if played is None:
            played = np.full((count, 32), -1)
        played = _integers("played", played, 2)
        if played.shape != (count, 32):
            raise IllegalPlayError(f"played must have shape ({count}, 32) (card indices padded "
                                   f"with -1), got {played.shape}")
        if count and (played.min() < -1 or played.max() > 31):
            row = int(np.nonzero((played < -1).any(1) | (played > 31).any(1))[0][0])
            raise IllegalPlayError(f"row {row}: played holds {played[row].tolist()}: a card "
                                   f"is 0..31, and -1 pads")
        self.played = np.ascontiguousarray(played, dtype=np.int8)
        self.hands = np.ascontiguousarray(np.stack(
            [((self.deal == seat) * _BITS).sum(1, dtype=np.uint64) for seat in range(4)],
            axis=1).astype(np.uint32))
        # The team to move (0 NS, 1 EW), known once the rows are replayed (_check_plays).
        self.to_move_team = np.zeros(count, dtype=np.int8)


def _round_of(rules: Rules) -> str:
    """The kind of round `rules` play, in words."""
    what = "a ledig round" if rules.contract == "ledig" else "a round"
    return what + (" at a table of three" if rules.players == 3 else "")


def _integers(name: str, value: Any, dimensions: int) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim != dimensions or (array.size and not np.issubdtype(array.dtype, np.integer)):
        raise SolverError(f"{name} must be a {dimensions}-dimensional array of whole numbers, "
                          f"got {array.dtype} of shape {array.shape}")
    return array


def _column(name: str, value: Any, count: int, most: int, least: int = 0) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim == 0:
        array = np.full(count, array)
    array = _integers(name, array, 1)
    if array.shape != (count,):
        raise SolverError(f"{name} must have one number per row ({count}), got shape "
                          f"{array.shape}")
    if count and (array.min() < least or array.max() > most):
        row = int(np.nonzero((array < least) | (array > most))[0][0])
        raise SolverError(f"row {row}: {name} {int(array[row])} is not one of {least}..{most}")
    return np.ascontiguousarray(array, dtype=np.int8)


def _deal_of(rows: _Rows, row: int) -> Deal:
    deal = rows.deal[row]
    return Deal([[ALL_CARDS[c] for c in np.nonzero(deal == seat)[0]]
                 for seat in range(4)])


def _game_of(rows: _Rows, row: int, rules: Rules) -> Game:
    """Row `row`'s round at trick 1, as a Game; an error the Game raises names the row."""
    trump, bidder, dummy = (int(rows.trump[row]), int(rows.bidder[row]),
                            int(rows.dummy[row]))
    try:
        return Game(_deal_of(rows, row), None if trump < 0 else Suit(trump),
                    Seat(int(rows.leader[row])), Team(int(rows.playing[row])), rules,
                    bidder=None if bidder < 0 else Seat(bidder),
                    dummy=None if dummy < 0 else Seat(dummy))
    except SolverError as err:
        err.args = (f"row {row}: {err}",) + err.args[1:]
        raise


def _specs(rows: _Rows, rules: Rules) -> Tuple[List[Dict[str, Any]], np.ndarray]:
    """The engine specs the rows need, and each row's index among them. The rules read the
    deal only for roem in hand and stuk in hand: then each deal has its own spec."""
    reads_deal = rules.roem == "hand" or (rules.roem == "table" and rules.stuk == "hand")
    keys: Dict[Any, int] = {}
    specs: List[Dict[str, Any]] = []
    params_of = np.zeros(rows.count, dtype=np.int32)
    for row in range(rows.count):
        # The dummy does not change a value (tables of three play as four), but each is checked.
        key: Any = (int(rows.trump[row]), int(rows.playing[row]), int(rows.bidder[row]),
                    int(rows.dummy[row]), rows.deal[row].tobytes() if reads_deal else None)
        if key not in keys:
            keys[key] = len(specs)
            specs.append(engine_spec(_game_of(rows, row, rules)))
        params_of[row] = keys[key]
    return specs, params_of


def _local_specs(params_of: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """(the spec indices some rows use, each row's index among those): an engine call takes
    the Params of the specs its rows use alone, which is one per deal when the rules read the
    deal."""
    used, local = np.unique(params_of, return_inverse=True)
    return used, np.ascontiguousarray(local.reshape(-1), dtype=np.int32)


def _check_plays(engine: Any, rules: Rules, rows: _Rows, specs: List[Dict[str, Any]],
                 params_of: np.ndarray) -> None:
    """Every row's cards played replayed in C; the first bad row raises the Game's own error
    for it, naming the row. Sets the team to move of each row."""
    status = np.empty(rows.count, dtype=np.int32)
    to_move = np.zeros(rows.count, dtype=np.int8)
    for start in range(0, rows.count, _CHECKED_TOGETHER):
        part = slice(start, start + _CHECKED_TOGETHER)
        used, local = _local_specs(params_of[part])
        engine.check_rows([specs[i] for i in used], local, rows.hands[part], rows.leader[part],
                          rows.played[part], status[part], to_move[part])
    bad = np.nonzero(status >= 0)[0]
    if len(bad):
        row = int(bad[0])
        raise IllegalPlayError(f"row {row}: {_play_error(rules, rows, row, int(status[row]))}")
    rows.to_move_team = to_move % 2


def _play_error(rules: Rules, rows: _Rows, row: int, index: int) -> str:
    played = rows.played[row]
    count = int(np.argmax(played < 0)) if (played < 0).any() else 32
    if index >= count:
        return (f"played[{index}] is {int(played[index])} after the -1 padding began at "
                f"played[{count}]")
    game = _game_of(rows, row, rules)
    try:
        game.replay([ALL_CARDS[c] for c in played[:index + 1]])
    except IllegalPlayError as err:
        return f"played[{index}]: {err}"
    raise AssertionError(f"row {row}: the engine refused played[{index}], the Game did not")
