"""The batch's search: checked rows of positions (`PositionBatch`) searched in C without the
GIL on worker threads, each with its own engine and table, with no Python between the rows."""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from typing import Any, ContextManager, Dict, List, Optional, Tuple

import numpy as np

from ..engine._compiled import engine as _engine
from ..engine.objectives import objective_of
from ..engine.packing import hand_masks, spec_trump
from ..engine.search import (DEFAULT_TABLE_MB, MOST_TABLE_MB, Solver, engine_spec,
                             spec_reads_deal)
from ..errors import (DealError, IllegalPlayError, NotationError, RulesError, SolverError,
                      choice, quote, whole_number)
from ..model.cards import ALL_CARDS, Card, Seat, Suit, Team
from ..model.deal import Deal
from ..model.game import Game
from ..model.label_row import NOT_LEGAL
from ..model.rules import Rules, RulesLike, check_rules
from ..model.scoring import OBJECTIVES, check_objective
from .columns import card_margins, card_matrix, column, row_indices

# Rows a thread takes at a time: small enough that the threads finish together, large
# enough that the hand-over costs nothing against the searches. Rows early in the round
# (at most _EARLY cards played: searches of milliseconds) are cut finer, into
# _CHUNKS_PER_THREAD chunks a thread, so that a few rows (the worlds of a view at trick 1,
# one a chunk) keep every thread busy to the end: a bot's first card, 32 worlds, took 0.93x
# the wall time with 16 as with 4 (20 positions, twice). Later rows search in microseconds,
# where a thread more costs more than it gains unless it has a whole chunk.
_CHUNK = 64
_CHUNKS_PER_THREAD = 16
_EARLY = 12
# Rows checked in one engine call: their specs' Params are built for the call.
_CHECKED_TOGETHER = 4096
# The most a bound of against() is tried below the lead's value: the engine's infinity, less 1.
MOST_MARGIN = int(_engine.INFINITY) - 1
# The engine's margins of a card that against() leaves unsearched, and searches exactly.
_NOT_SEARCHED = int(_engine.INFINITY) + 1
_SEARCHED_EXACTLY = int(_engine.INFINITY) + 2


def move_values(deal: Any, trump: Any, leader: Any, playing: Any = None, played: Any = None,
                objective: str = "points", rules: Optional[RulesLike] = None,
                workers: Optional[int] = None, table_mb: int = DEFAULT_TABLE_MB, *,
                bidder: Any = None, dummy: Any = None, seen_from: str = "to_move") -> np.ndarray:
    """int16[N, 32]: for each row, every legal card's value for `objective` ("points",
    "score", or "make": 1 when the team reaches its aim), and NOT_LEGAL for the other cards
    (all of them once the round is over). The values are seen from the team to move (the
    labels' `values`), or with `seen_from="playing"` from the playing team, as `solve_moves`
    gives them. `trump` (a suit 0..3 or letter), `leader` (a seat), `playing` (a team) and
    `bidder` of a ledig round, `dummy` at a table of three (which give `playing` when it is
    left out) may each be one value for every row; `played` None means trick 1, nothing
    played. The rows are searched on `workers` threads (default: all cores)."""
    check_objective(objective)
    return PositionBatch(deal, trump, leader, playing, played, rules, workers,
                         table_mb, bidder=bidder, dummy=dummy).values(objective,
                                                                      seen_from=seen_from)


def position_values(deal: Any, trump: Any, leader: Any, playing: Any = None,
                    played: Any = None, objective: str = "points",
                    rules: Optional[RulesLike] = None, workers: Optional[int] = None,
                    table_mb: int = DEFAULT_TABLE_MB, *, bidder: Any = None,
                    dummy: Any = None) -> np.ndarray:
    """int16[N]: each row's value for `objective` with best play by both sides from its
    position on, seen from the playing team: `solve(...).value` of the row (a make as 1 or
    0), for rows as `move_values` takes them. It costs one `move_values`."""
    check_objective(objective)
    return PositionBatch(deal, trump, leader, playing, played, rules, workers,
                         table_mb, bidder=bidder, dummy=dummy).position_values(objective)


# Whose view a batch's card values are seen from: the team to move's (the labels'), or the
# playing team's (solve_moves').
SIDES = ("to_move", "playing")


class PositionBatch:
    """Checked rows of positions (as `move_values` takes them) and the engines that search
    them, for callers that search the same rows more than once (solver.analysis.view)."""

    def __init__(self, deal: Any, trump: Any, leader: Any, playing: Any = None,
                 played: Any = None, rules: Optional[RulesLike] = None,
                 workers: Optional[int] = None, table_mb: int = DEFAULT_TABLE_MB,
                 solver: Optional[Solver] = None, *, bidder: Any = None,
                 dummy: Any = None) -> None:
        """`solver`, when given, searches every row on its own engine and table (warm from
        its earlier calls), on the calling thread: `workers` and `table_mb` are then unused."""
        self.rules = check_rules(rules)
        _check_round_columns(self.rules, bidder, dummy)
        if solver is not None and not isinstance(solver, Solver):
            raise SolverError(f"solver must be a Solver (Solver(rules)), got {quote(solver)}")
        self.solver = solver
        table_mb = whole_number("table_mb (megabytes)", table_mb, 1, MOST_TABLE_MB)
        threads = (os.cpu_count() or 1) if workers is None else whole_number("workers",
                                                                             workers, 1)
        self.rows = _Rows(deal, trump, leader, playing, played, bidder, dummy, self.rules)
        self.count = self.rows.count
        self.search_seconds = 0.0     # time in engine calls
        self.engines: List[Any] = []
        self._nodes_before = 0
        self._chunk = _CHUNK
        self._early = False
        self._final_solver: Optional[Solver] = None
        if self.count == 0:
            return
        self.specs, self.params_of = _specs(self.rows, self.rules)
        self._early = int((self.rows.played >= 0).sum(1).min()) <= _EARLY
        if self._early:
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

    def values(self, objective: str = "points", rows: Any = None,
               seen_from: str = "to_move") -> np.ndarray:
        """int16[len(rows), 32]: `move_values` of the rows (default: all, else a list of row
        numbers), in their order, seen from the team to move or (`seen_from="playing"`) from
        the playing team."""
        check_objective(objective)
        choice("seen_from", seen_from, SIDES)
        picked = row_indices(rows, self.count)
        values = self._playing_values(objective, picked)
        return values if seen_from == "playing" else self._for_mover(values, objective, picked)

    def position_values(self, objective: str = "points", rows: Any = None) -> np.ndarray:
        """int16[len(rows)]: each row's value with best play from its position on, seen from
        the playing team (`solve(...).value`, a make as 1 or 0): the best of its card values
        for the side to move."""
        check_objective(objective)
        picked = row_indices(rows, self.count)
        values: np.ndarray = self._playing_values(objective, picked).astype(np.int32)
        legal = values != NOT_LEGAL
        best = np.where(legal, values, -_engine.INFINITY).max(1, initial=-_engine.INFINITY)
        worst = np.where(legal, values, _engine.INFINITY).min(1, initial=_engine.INFINITY)
        out = np.where(self.rows.to_move_team[picked] == self.rows.playing[picked], best, worst)
        for i in np.nonzero(~legal.any(1))[0]:
            out[i] = self._final_value(int(picked[i]), objective)
        result: np.ndarray = out.astype(np.int16)
        return result

    def against(self, objective: str, lead: Any, rows: Any = None,
                margin: Any = None, *, lead_only: bool = False,
                exactly: Any = (), row_margins: Any = None, lead_values: Any = None,
                cards: Any = None) -> Tuple[np.ndarray, np.ndarray]:
        """(int16[n, 32], bool[n, 32]) for the rows (default: all) and lead[i], a legal card
        (0..31, or "HJ") of row rows[i] (one for all rows too), for "points" or "score": lead's
        exact value, and for each other legal card its exact value (True) where it is better
        than lead, else an upper bound on it no higher than lead's value (False); both seen
        from the team to move. margin[card] (32 numbers, or one for all; default 0): the bound
        is first tried that much lower than lead's value, which tightens it where the card is
        that much worse. (With `row_margins` or `lead_values`, below, the bounds are looser
        than this.) With `lead_only`, only lead's exact value is searched: every other
        legal card has the bound INFINITY (nothing known) and False. The cards of `exactly`
        (card indices) are searched exactly in every row (True), each right after its row's
        lead, while the table holds what the lead's search learned. `row_margins`
        (int[n, 32], -MOST_MARGIN..MOST_MARGIN) gives each row its own margins instead; a
        negative one tries the bound above lead's value: a card is then exact (True) only where
        it is better than that, and its bound may be above lead's value. With `lead_values` (lead's exact values of the rows, known) lead is
        not searched again, and each other card gets one null window at its margin below that
        value: its bound where the window holds, else INFINITY. `cards` (card indices, or
        bool[n, 32] for each row's own), when given, are the only cards searched besides lead."""
        # Exact values and bounds of one metric: not a make, nor a score made of one.
        if (not isinstance(objective, str) or objective not in OBJECTIVES
                or objective_of(self.rules, objective).metric is None):
            ledig = self.rules.contract == "ledig"
            raise SolverError(f"against() takes points or the score of a trump round, not "
                              f"{quote(objective, 20)}" + (" of a ledig round" if ledig
                                                           else ""))
        picked = row_indices(rows, self.count)
        leads = column("lead", lead, len(picked), 0, 31, "a card 0..31 or like 'HJ'",
                       NotationError, parse=lambda text: Card.parse(text).index, rows=picked)
        if row_margins is None:
            margins = np.tile(np.array(card_margins(margin, MOST_MARGIN), dtype=np.int16),
                              (len(picked), 1))
        else:
            margins = _row_margins(row_margins, len(picked))
        if lead_only:
            margins[:] = _NOT_SEARCHED
        if cards is not None:
            mask = np.asarray(cards)
            if mask.dtype != bool or mask.shape != margins.shape:
                mask = np.zeros(margins.shape, dtype=bool)
                mask[:, [whole_number("a card of cards", card, 0, 31) for card in cards]] = True
            margins[~mask] = _NOT_SEARCHED
        for card in exactly:
            margins[:, whole_number("a card of exactly", card, 0, 31)] = _SEARCHED_EXACTLY
        known = None
        if lead_values is not None:
            known = np.asarray(lead_values, dtype=np.int64).reshape(-1)
            if known.shape != (len(picked),) or (np.abs(known) >= MOST_MARGIN).any():
                raise SolverError(f"lead_values must be {len(picked)} values, one per row")
            # The engine's values are the playing team's.
            theirs = self.rows.to_move_team[picked] != self.rows.playing[picked]
            known = np.ascontiguousarray(np.where(theirs, -known, known), dtype=np.int16)
        values, exact = self._search(objective, picked, leads, margins, known)
        # The engine plays another card for a lead that is not legal: refuse it here.
        refused = np.nonzero(values[np.arange(len(picked)), leads] == NOT_LEGAL)[0]
        if len(refused):
            i = int(refused[0])
            raise IllegalPlayError(f"row {int(picked[i])}: lead {int(leads[i])} "
                                   f"({ALL_CARDS[leads[i]]}) is not a legal card there")
        return self._for_mover(values, objective, picked), exact

    def _playing_values(self, objective: str, picked: np.ndarray) -> np.ndarray:
        """The rows' card values for `objective`, seen from the playing team."""
        aim = objective_of(self.rules, objective)
        values = self._search(aim.searched.name, picked)[0]
        if aim.searched is aim:
            return values
        # Searched as a make (ledig's score): each card's value where it is made or not.
        made, missed = int(aim.value_of_make(True)), int(aim.value_of_make(False))
        result: np.ndarray = np.where(values == NOT_LEGAL, NOT_LEGAL,
                                      np.where(values == 1, made, missed)).astype(np.int16)
        return result

    def _for_mover(self, values: np.ndarray, objective: str, picked: np.ndarray) -> np.ndarray:
        """`values` seen from the playing team, seen from each row's team to move."""
        theirs = (self.rows.to_move_team[picked] != self.rows.playing[picked])[:, None]
        flip = theirs & (values != NOT_LEGAL)
        values = values.copy()
        # A make is 1 when the playing team makes it: the defenders' aim is the other way round.
        values[flip] = (1 - values[flip] if objective_of(self.rules, objective).is_make
                        else -values[flip])
        return values

    def _final_value(self, row: int, objective: str) -> int:
        """The value of a row whose round is over, from its tricks."""
        game = _game_of(self.rows, row, self.rules)
        game.replay([ALL_CARDS[card] for card in self.rows.played[row]])
        if self.solver is not None:
            with self._solver_lock():
                return int(self.solver.value(game, objective))
        if self._final_solver is None:
            self._final_solver = Solver(self.rules, table_mb=1)
        return int(self._final_solver.value(game, objective))

    def _search(self, objective: str, picked: np.ndarray, lead: Optional[np.ndarray] = None,
                margin: Optional[np.ndarray] = None,
                known: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray]:
        """The rows' card values seen from the playing team, and the exact flags of `lead`."""
        count = len(picked)
        out: np.ndarray = np.full((count, 32), NOT_LEGAL, dtype=np.int16)
        exact: np.ndarray = np.zeros((count, 32), dtype=np.uint8)
        if count == 0:
            return out, exact.astype(bool)
        rules, specs = self.rules, self.specs
        aim = objective_of(rules, objective)
        tests = [aim.search_test(spec_trump(spec)) for spec in specs]
        metric = tests[0][0]       # the rules' alone: the same for every spec
        thresholds = [threshold for _, threshold in tests]
        params_of = np.ascontiguousarray(self.params_of[picked])
        hands = np.ascontiguousarray(self.rows.hands[picked])
        leader = np.ascontiguousarray(self.rows.leader[picked])
        played = np.ascontiguousarray(self.rows.played[picked])
        size = self._chunk
        if self._early:
            # A call with few early rows (a view's scouting worlds) gives every engine some.
            size = min(size, -(-count // len(self.engines)))
        chunks = [(start, min(start + size, count)) for start in range(0, count, size)]
        # Each thread owns an engine: a thread takes the next chunk when it is done with one.
        free = list(self.engines)

        def search(chunk: Tuple[int, int]) -> int:
            engine = free.pop()
            try:
                start, stop = chunk
                extra = {} if lead is None else {"lead": lead[start:stop],
                                                  "exact": exact[start:stop],
                                                  "margin": None if margin is None
                                                  else margin[start:stop],
                                                  "given": None if known is None
                                                  else known[start:stop]}
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
        return out, exact.astype(bool)


def _row_margins(value: Any, rows: int) -> np.ndarray:
    """int16[rows, 32]: against()'s row_margins, whole numbers -MOST_MARGIN..MOST_MARGIN."""
    array = np.asarray(value)
    if array.shape != (rows, 32) or array.dtype.kind not in "iu":
        raise SolverError(f"row_margins must be whole numbers of shape ({rows}, 32), got "
                          f"{array.dtype} of shape {array.shape}")
    if (np.abs(array.astype(np.int64)) > MOST_MARGIN).any():
        raise SolverError(f"row_margins must be -{MOST_MARGIN}..{MOST_MARGIN}")
    result: np.ndarray = np.ascontiguousarray(array, dtype=np.int16)
    return result


def _check_round_columns(rules: Rules, bidder: Any, dummy: Any) -> None:
    """A ledig round needs `bidder` and a round at a table of three `dummy`; other rounds
    take neither. RulesError names the column."""
    for name, column_, needed, rule in (("bidder", bidder, rules.contract == "ledig",
                                         "contract='ledig'"),
                                        ("dummy", dummy, rules.players == 3, "players=3")):
        if needed and column_ is None:
            raise RulesError(f"solver.batch: {_round_of(rules)} needs the {name} column "
                             f"({name}=, a seat 0..3 per row or one for all)")
        if not needed and column_ is not None:
            raise RulesError(f"{name} is for rounds under rules {rule}, which these rules "
                             f"are not")


# How each column is read: its least and largest value, in words, and what reads its text.
_SEAT = (0, 3, "a seat 0..3 or N, E, S, W", lambda text: Seat.parse(text))
_TEAM = (0, 1, "a team 0..1 or NS, EW", lambda text: Team.parse(text))
_SUIT = (0, 3, "a suit 0..3 or C, D, H, S", lambda text: Suit.parse(text))


def _no_suit(text: str) -> int:
    """No text is a trump where there is none: refused, the error naming the row and -1."""
    raise NotationError(f"{text!r} is no trump")
_NO_TRUMP = (-1, -1, "-1: a ledig round under ledig_trump='none' has no trump", _no_suit)


class _Rows:
    """The checked arrays of a batch, in the engine's types."""

    def __init__(self, deal: Any, trump: Any, leader: Any, playing: Any, played: Any,
                 bidder: Any, dummy: Any, rules: Rules) -> None:
        self.deal = card_matrix("deal", deal, None, 0, 3, "a seat 0..3", DealError)
        self.count = count = self.deal.shape[0]
        sizes = np.stack([(self.deal == seat).sum(1) for seat in range(4)], axis=1)
        if count and (sizes != 8).any():
            row = int(np.nonzero((sizes != 8).any(1))[0][0])
            raise DealError(f"row {row}: deal gives the seats {sizes[row].tolist()} cards, "
                            f"not 8 each")
        no_trump = rules.contract == "ledig" and rules.ledig_trump == "none"
        if no_trump and trump is None:
            trump = -1
        self.trump = _read_column("trump", trump, count, _NO_TRUMP if no_trump else _SUIT)
        self.leader = _read_column("leader", leader, count, _SEAT)
        # -1 where a round has none.
        self.bidder = np.full(count, -1, np.int8) if bidder is None else _read_column(
            "bidder", bidder, count, _SEAT)
        self.dummy = np.full(count, -1, np.int8) if dummy is None else _read_column(
            "dummy", dummy, count, _SEAT)
        if playing is None and (bidder is not None or dummy is not None):
            # The bidder's team plays a ledig round, the dummy's a round at a table of three.
            playing = (self.bidder if bidder is not None else self.dummy) % 2
        self.playing = _read_column("playing", playing, count, _TEAM)
        self.played = card_matrix("played", np.full((count, 32), -1) if played is None
                                  else played, count, -1, 31, "a card 0..31, or -1 after the "
                                  "last", IllegalPlayError)
        self.hands = hand_masks(self.deal)
        # The team to move (0 NS, 1 EW), known once the rows are replayed (_check_plays).
        self.to_move_team = np.zeros(count, dtype=np.int8)


def _read_column(name: str, value: Any, count: int, kind: Tuple[Any, ...]) -> np.ndarray:
    least, most, what, parse = kind
    return column(name, value, count, least, most, what, NotationError, parse=parse)


def _round_of(rules: Rules) -> str:
    """The kind of round `rules` play, in words."""
    what = "a ledig round" if rules.contract == "ledig" else "a round"
    return what + (" at a table of three" if rules.players == 3 else "")


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
    reads_deal = spec_reads_deal(rules)
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
        # The Game's message ends with the legal cards; the batch's stays one short line (a
        # row's legal cards are its values that are not NOT_LEGAL).
        return f"played[{index}]: {str(err).split('; legal are')[0]}"
    raise AssertionError(f"row {row}: the engine refused played[{index}], the Game did not")
