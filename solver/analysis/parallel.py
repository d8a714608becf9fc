"""Independent searches on all cores: a thread pool with one warm `Solver` per thread.

The search releases the GIL, so threads run in parallel; each keeps its own Solver (and
table), and the results come back in the order of the items, whatever the worker count.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterable, List, Optional, TypeVar

from ..errors import SolverError, quote, whole_number
from ..model.rules import Rules
from ..engine.search import Solver, warm_solver

Item = TypeVar("Item")
Result = TypeVar("Result")


def check_workers(workers: Optional[int]) -> int:
    """`workers`, or all cores for None; a clear error for anything but a whole number >= 1."""
    if workers is None:
        return os.cpu_count() or 1
    return whole_number("workers", workers, least=1)


def check_solver(solver: Optional[Solver]) -> Optional[Solver]:
    """`solver`, when it is a Solver or None; anything else is a SolverError."""
    if solver is not None and not isinstance(solver, Solver):
        raise SolverError(f"solver must be a Solver (Solver(rules)), got {quote(solver)}")
    return solver


def solve_all(work: Callable[[Solver, Item], Result], items: Iterable[Item], rules: Rules,
              workers: Optional[int] = None, solver: Optional[Solver] = None) -> List[Result]:
    """[work(solver, item) for item in items], spread over `workers` threads; a `solver`
    given is used alone, on this thread."""
    items = list(items)
    given = check_solver(solver)
    if given is not None:
        return [work(given, item) for item in items]
    workers = min(check_workers(workers), max(len(items), 1))
    if workers == 1:
        solver = warm_solver(rules)
        return [work(solver, item) for item in items]

    def run(item: Item) -> Result:
        return work(warm_solver(rules), item)

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(run, items))
