"""Worker processes, for the labels and the arena alike: `WorkerPool(setup, tasks, workers)`
hands out one task at a time to each worker and gives back the results, in the order they
finish or (`ordered`) in the order of the tasks.

- The workers are spawned (a fresh interpreter each), never forked: forking a process that
  runs threads (a progress bar's, a notebook's, the engine's batch) can deadlock the child,
  and Python deprecates it. So what a worker needs travels to it by pickle: `setup`, a
  function at the top level of an importable module (or a `functools.partial` of one), runs
  once in each worker and returns the function that does a task. A script that starts
  workers guards its own work with `if __name__ == "__main__":`, as every spawning program
  must, since each worker imports the script's module.
- A worker ignores Ctrl-C (which reaches the whole process group: the parent stops the pool)
  and ends with its parent, however the parent dies (`solver._parent`, kill -9 included).
- `close()` ends every worker at once, busy or not: a stopped run stops now, not when the
  tasks in flight end. A worker that dies (killed, out of memory) is the caller's error
  `died`, not a result that never comes.

Needs only the standard library and `solver.errors`: every layer may use it.
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import threading
from multiprocessing.connection import Connection, wait
from typing import (Any, Callable, Dict, Generator, Generic, Iterable, Iterator, List,
                    Optional, Tuple, Type, TypeVar, cast)

from ._parent import end_with_parent
from .errors import SolverError, shorten

T = TypeVar("T")
R = TypeVar("R")

# Spawned workers: safe whatever threads the parent runs, and the same on every platform.
START_METHOD = "spawn"
# How long the parent sleeps on its workers' pipes before it looks for a Ctrl-C: the kernel may
# hand the signal to any thread (NumPy's BLAS threads, a batch's), and Python then only marks it
# for the main thread, which acts on it when it wakes, not in the middle of its wait.
_SIGNAL_SECONDS = 0.1


class WorkerPool(Generic[T, R]):
    """`workers` processes doing `tasks`: iterate for the results, `close()` to stop (also on
    leaving a `with` block). An error a task raises is raised here, as it was raised there; a
    worker that dies is `error(died)`."""

    def __init__(self, setup: Callable[[], Callable[[T], R]], tasks: Iterable[T], workers: int,
                 error: Type[SolverError], died: str, ordered: bool = False) -> None:
        context: Any = multiprocessing.get_context(START_METHOD)
        self._tasks: Iterator[Tuple[int, T]] = enumerate(tasks)
        self._error, self._died, self._ordered = error, died, ordered
        self._workers: List[Tuple[Any, Connection]] = []
        self._results = self._collect()         # a generator: runs from the first next()
        try:
            # Pickled here, unpickled by the worker only once it ends with its parent: the
            # imports it brings take a while, and a parent may die meanwhile.
            sent = pickle.dumps(setup)
        except (pickle.PicklingError, AttributeError, TypeError) as err:
            raise error(f"what the workers need cannot be sent to them ({shorten(str(err))}): "
                        f"define it at the top level of an importable module, or use one "
                        f"worker") from None
        # The kernel's watch of the parent ends the workers with the thread that started
        # them: only the main thread lives as long as the process (`end_with_parent`).
        from_main_thread = threading.current_thread() is threading.main_thread()
        try:
            for _ in range(workers):
                ours, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(sent, theirs, os.getpid(),
                                                               from_main_thread), daemon=True)
                try:
                    process.start()
                finally:
                    theirs.close()  # only the worker holds its end: its death reads as EOF
                self._workers.append((process, ours))
        except BaseException:
            self.close()
            raise

    def __iter__(self) -> Iterator[R]:
        return self._results

    def __enter__(self) -> "WorkerPool[T, R]":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def workers(self) -> List[int]:
        """The process ids of the workers still running."""
        return [process.pid for process, _ in self._workers if process.is_alive()]

    def _collect(self) -> Generator[R, None, None]:
        busy = [connection for _, connection in self._workers if self._send_next(connection)]
        waiting: Dict[int, R] = {}      # ordered: results that came before their turn
        turn = 0
        while busy:
            for connection in cast(List[Connection], wait(busy, _SIGNAL_SECONDS)):
                try:
                    number, failed, result = connection.recv()
                except (EOFError, OSError):
                    raise self._error(self._died) from None
                if failed:
                    raise result
                if not self._send_next(connection):     # no more work: the worker ends
                    busy.remove(connection)
                if not self._ordered:
                    yield result
                    del result      # the caller's now: hold none here
                    continue
                waiting[number] = result
                del result
                while turn in waiting:
                    yield waiting.pop(turn)
                    turn += 1

    def _send_next(self, connection: Connection) -> bool:
        """Send the next task to a worker, or None to end it; whether there was a task."""
        task = next(self._tasks, None)
        try:
            connection.send(task)
        except OSError:
            raise self._error(self._died) from None
        return task is not None

    def close(self) -> None:
        """Stop every worker now (a finished one has left already) and wait for it."""
        self._results.close()
        for process, connection in self._workers:
            if process.is_alive():
                process.terminate()
            process.join()
            connection.close()
        self._workers = []


def _serve(setup: bytes, connection: Connection, parent: int, from_main_thread: bool) -> None:
    """A worker process: `setup` (pickled) makes the work; then (number, task) in, (number,
    failed, result or error) out; None ends it."""
    # Ctrl-C goes to the whole process group: the parent stops the pool, the workers wait.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent(parent, by_kernel=from_main_thread)
    work: Optional[Callable[[Any], Any]] = None
    failure: Optional[BaseException] = None
    try:
        work = pickle.loads(setup)()
    except Exception as err:        # reported with the first task, where the caller looks
        failure = err
    while True:
        try:
            message = connection.recv()
        except EOFError:        # the parent is gone
            return
        if message is None:
            return
        number, task = message
        reply: Tuple[int, bool, Any]
        try:
            if work is None:
                raise cast(BaseException, failure)
            reply = (number, False, work(task))
        except Exception as err:
            reply = (number, True, err)
        try:
            connection.send(reply)
        except OSError:         # the parent is gone
            return
        except Exception as err:    # a result or an error that does not pickle
            connection.send((number, True, SolverError(
                f"a worker's {'error' if reply[1] else 'result'} could not be sent back: "
                f"{type(err).__name__}: {shorten(str(err))}")))
