"""A worker's side of a labels run: the Solvers it keeps between shards, and one shard's
columns with the time spent inside solver calls.

A worker is a process of the local pool, the caller's own thread, or a thread of a Dask
worker; each thread keeps its own Solvers, since a Solver searches for one thread at a time.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Dict, Tuple

import numpy as np

from ..engine.search import Solver
from ..model.rules import Rules
from .config import LabelConfig
from .rows import shard_columns

# Solvers one thread keeps: a run needs one, a session that runs several configs a few more.
# Each holds a table of DEFAULT_TABLE_MB, so an unbounded cache grows with every new config.
SOLVERS_KEPT = 4

_local = threading.local()


def worker_solver(config: LabelConfig) -> Solver:
    """This thread's Solver for `config`'s rules and objectives, kept between shards so its
    table stays warm. A thread keeps at most SOLVERS_KEPT; the least recently used goes first.
    """
    kept: "OrderedDict[Tuple[Rules, Tuple[str, ...]], Solver]" = _kept()
    key = (config.rules, config.objectives)
    if key in kept:
        kept.move_to_end(key)
    else:
        kept[key] = Solver(config.rules)
        while len(kept) > SOLVERS_KEPT:
            kept.popitem(last=False)
    return kept[key]


def _kept() -> "OrderedDict[Tuple[Rules, Tuple[str, ...]], Solver]":
    if not hasattr(_local, "solvers"):
        _local.solvers = OrderedDict()
    solvers: "OrderedDict[Tuple[Rules, Tuple[str, ...]], Solver]" = _local.solvers
    return solvers


def timed_shard(config: LabelConfig, shard: int) -> Tuple[int, Dict[str, np.ndarray], float]:
    """(shard, its columns, the seconds spent inside solver calls), on this thread's Solver."""
    solver = worker_solver(config)
    before = solver.search_seconds
    columns = shard_columns(config, shard, solver)
    return shard, columns, solver.search_seconds - before


def timed_part(config: LabelConfig, shard: int, part: int, parts: int
               ) -> Tuple[Tuple[int, int], Dict[str, np.ndarray], float]:
    """((shard, part), the columns of that part of the shard, the seconds spent inside solver
    calls): `timed_shard` for a shard shared out among workers (shard_columns' parts)."""
    solver = worker_solver(config)
    before = solver.search_seconds
    columns = shard_columns(config, shard, solver, part, parts)
    return (shard, part), columns, solver.search_seconds - before
