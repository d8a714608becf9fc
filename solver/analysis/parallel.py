"""Independent searches on all cores: a thread pool with one `Solver` per thread.

The search releases the GIL, so threads run in parallel; each keeps its own Solver (and
table), and the results come back in the order of the items, whatever the worker count.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterable, List, Optional, TypeVar

from ..errors import SolverError, quote
from ..model.rules import Rules
from ..engine.search import Solver

Item = TypeVar("Item")
Result = TypeVar("Result")


def check_workers(workers: Optional[int]) -> int:
    """`workers`, or all cores for None; a clear error for anything but a whole number >= 1."""
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SolverError(f"workers must be a whole number of at least 1, got {quote(workers)}")
    return workers


def solve_all(work: Callable[[Solver, Item], Result], items: Iterable[Item], rules: Rules,
              workers: Optional[int] = None, solver: Optional[Solver] = None) -> List[Result]:
    """[work(solver, item) for item in items], spread over `workers` threads; a `solver`
    given is used alone, on this thread."""
    items = list(items)
    if solver is not None:
        return [work(solver, item) for item in items]
    workers = min(check_workers(workers), max(len(items), 1))
    if workers == 1:
        solver = Solver(rules)
        return [work(solver, item) for item in items]
    local = threading.local()

    def run(item):
        if not hasattr(local, "solver"):
            local.solver = Solver(rules)
        return work(local.solver, item)

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(run, items))
