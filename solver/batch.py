"""Many positions in one call: NumPy arrays in the labels' schema in, every card's value out.

Each position is a row: `deal` int8[N, 32] (the seat, 0..3 for N E S W, dealt each card, by
card index `suit * 8 + rank`), `trump` (suit 0..3 for C D H S, as `Suit`), `leader` (the seat leading
trick 1) and `playing` (team 0 NS, 1 EW) int8[N], and `played` int8[N, 32]: the card indices
played so far, padded with -1. `move_values` returns int16[N, 32]: the value of each legal card
of the player to move for an objective, seen from that player's team (the labels' `values`),
and NOT_LEGAL (-32768) for every other card. The rows are checked first (a bad one raises
the package's error naming its row), then searched in C without the GIL, on `workers` threads
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
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from .engine._compiled import engine as _engine
from .engine.search import DEFAULT_TABLE_MB, MOST_TABLE_MB, engine_spec
from .errors import DealError, IllegalPlayError, SolverError, whole_number
from .model.cards import ALL_CARDS, Seat, Suit, Team
from .model.deal import Deal
from .model.game import Game
from .model.rules import Rules, RulesLike, check_rules
from .model.scoring import card_points_to_make, check_objective, make_is_points_above_zero

NOT_LEGAL = -32768      # the value of a card that is not legal (the labels' NOT_LEGAL)
# Rows a thread takes at a time: small enough that both threads finish together, large
# enough that the hand-over costs nothing against the searches.
_CHUNK = 64
_BITS = (np.uint64(1) << np.arange(32, dtype=np.uint64))


def move_values(deal: Any, trump: Any, leader: Any, playing: Any, played: Any = None,
                objective: str = "points", rules: Optional[RulesLike] = None,
                workers: Optional[int] = None, table_mb: int = DEFAULT_TABLE_MB) -> np.ndarray:
    """int16[N, 32]: for each row, every legal card's value for `objective` ("points",
    "score", or "make": 1 when the team reaches its aim) seen from the team to move, and
    NOT_LEGAL for the other cards (all of them once the round is over). `trump`, `leader` and
    `playing` may each be one number for every row; `played` None means trick 1, nothing
    played. The rows are searched on `workers` threads (default: all cores)."""
    check_objective(objective)
    rules = check_rules(rules)
    table_mb = whole_number("table_mb (megabytes)", table_mb, 1, MOST_TABLE_MB)
    rows = _Rows(deal, trump, leader, playing, played)
    out = np.full((rows.count, 32), NOT_LEGAL, dtype=np.int16)
    if rows.count == 0:
        return out
    specs, params_of, thresholds = _specs(rows, rules, objective)
    threads = (os.cpu_count() or 1) if workers is None else whole_number("workers", workers, 1)
    engines = [_engine.Engine(table_mb) for _ in range(min(threads, -(-rows.count // _CHUNK)))]
    _check_plays(engines[0], rules, rows, specs, params_of)
    metric = _metric(rules, objective)
    chunks = [(start, min(start + _CHUNK, rows.count)) for start in range(0, rows.count, _CHUNK)]
    # Each thread owns an engine: a thread takes the next chunk when it is done with one.
    free = list(engines)

    def search(chunk: Tuple[int, int]) -> int:
        engine = free.pop()
        try:
            start, stop = chunk
            return engine.search_rows(specs, params_of[start:stop], thresholds,
                                      rows.hands[start:stop], rows.leader[start:stop],
                                      rows.played[start:stop], metric, out[start:stop])
        finally:
            free.append(engine)

    if len(engines) == 1:
        for chunk in chunks:
            search(chunk)
    else:
        with ThreadPoolExecutor(len(engines)) as pool:
            list(pool.map(search, chunks))
    if objective == "make":
        # 1 when the playing team makes it: the defenders' aim is the other way round.
        flip = (rows.to_move_team != rows.playing)[:, None] & (out != NOT_LEGAL)
        out[flip] = 1 - out[flip]
    else:
        flip = (rows.to_move_team != rows.playing)[:, None] & (out != NOT_LEGAL)
        out[flip] = -out[flip]
    return out


class _Rows:
    """The checked arrays of a batch, in the engine's types."""

    def __init__(self, deal: Any, trump: Any, leader: Any, playing: Any, played: Any) -> None:
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
        self.trump = _column("trump", trump, count, 3)
        self.leader = _column("leader", leader, count, 3)
        self.playing = _column("playing", playing, count, 1)
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


def _integers(name: str, value: Any, dimensions: int) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim != dimensions or (array.size and not np.issubdtype(array.dtype, np.integer)):
        raise SolverError(f"{name} must be a {dimensions}-dimensional array of whole numbers, "
                          f"got {array.dtype} of shape {array.shape}")
    return array


def _column(name: str, value: Any, count: int, most: int) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim == 0:
        array = np.full(count, array)
    array = _integers(name, array, 1)
    if array.shape != (count,):
        raise SolverError(f"{name} must have one number per row ({count}), got shape "
                          f"{array.shape}")
    if count and (array.min() < 0 or array.max() > most):
        row = int(np.nonzero((array < 0) | (array > most))[0][0])
        raise SolverError(f"row {row}: {name} {int(array[row])} is not one of 0..{most}")
    return np.ascontiguousarray(array, dtype=np.int8)


def _deal_of(rows: _Rows, row: int) -> Deal:
    deal = rows.deal[row]
    return Deal([[ALL_CARDS[c] for c in np.nonzero(deal == seat)[0]]
                 for seat in range(4)])


def _specs(rows: _Rows, rules: Rules, objective: str
           ) -> Tuple[List[Dict[str, Any]], np.ndarray, List[Optional[int]]]:
    """The engine specs the rows need, each row's index among them, and each spec's `make`
    threshold (None for the other objectives). The rules read the deal only for roem in hand
    and stuk in hand: then each deal has its own spec."""
    reads_deal = rules.roem == "hand" or (rules.roem == "table" and rules.stuk == "hand")
    keys: Dict[Any, int] = {}
    specs: List[Dict[str, Any]] = []
    thresholds: List[Optional[int]] = []
    params_of = np.zeros(rows.count, dtype=np.int32)
    for row in range(rows.count):
        trump, playing = int(rows.trump[row]), int(rows.playing[row])
        key: Any = (trump, playing, rows.deal[row].tobytes() if reads_deal else None)
        if key not in keys:
            keys[key] = len(specs)
            game = Game(_deal_of(rows, row), Suit(trump), Seat(int(rows.leader[row])),
                        Team(playing), rules)
            specs.append(engine_spec(game))
            thresholds.append(_make_threshold(rules, Suit(trump)) if objective == "make"
                              else None)
        params_of[row] = keys[key]
    return specs, params_of, thresholds


def _metric(rules: Rules, objective: str) -> int:
    if objective == "make":
        return int(_engine.Metric.METRIC_POINTS if make_is_points_above_zero(rules)
                   else _engine.Metric.METRIC_CARDS)
    return int(_engine.Metric.METRIC_SCORE if objective == "score"
               else _engine.Metric.METRIC_POINTS)


def _make_threshold(rules: Rules, trump: Suit) -> int:
    """What the make metric must reach (Solver's make test)."""
    return 1 if make_is_points_above_zero(rules) else card_points_to_make(rules, trump)


def _check_plays(engine: Any, rules: Rules, rows: _Rows, specs: List[Dict[str, Any]],
                 params_of: np.ndarray) -> None:
    """Every row's cards played replayed in C; the first bad row raises the Game's own error
    for it, naming the row. Sets the team to move of each row."""
    status = np.empty(rows.count, dtype=np.int32)
    to_move = np.zeros(rows.count, dtype=np.int8)
    engine.check_rows(specs, params_of, rows.hands, rows.leader, rows.played, status, to_move)
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
    game = Game(_deal_of(rows, row), Suit(int(rows.trump[row])), Seat(int(rows.leader[row])),
                Team(int(rows.playing[row])), rules)
    try:
        game.replay([ALL_CARDS[c] for c in played[:index + 1]])
    except IllegalPlayError as err:
        return f"played[{index}]: {err}"
    raise AssertionError(f"row {row}: the engine refused played[{index}], the Game did not")
