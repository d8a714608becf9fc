"""A labels run: `generate` shares out the shards that are not written yet, among local worker
processes or on a Dask cluster, writes each as it arrives, and ends with the manifest.

>>> import tempfile
>>> summary = generate(LabelConfig(deals=4, positions="root", format="npz"), tempfile.mkdtemp())
>>> summary.rows
4
"""
from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Dict, Generator, Iterator, List, Optional, Tuple, cast

import numpy as np

from ..errors import LabelsError, whole_number
from .config import LabelConfig
from .shards import encode, finish_manifest, open_manifest, shard_name, write_atomically
from .worker import timed_shard

ShardResult = Tuple[int, Dict[str, np.ndarray], float]

_WORKER_DIED = ("a worker process died (killed, or out of memory); the complete shards are "
                "kept: run the same command again to finish")


@dataclass
class Summary:
    """What a run did: rows written, shards done now and skipped (written before), the run's
    wall-clock time, and the time spent inside solver calls, added up over all workers (above
    the wall time when several workers search at once)."""

    rows: int
    shards_written: int
    shards_skipped: int
    wall_seconds: float
    search_seconds: float

    def __str__(self) -> str:
        rate = self.rows / self.wall_seconds if self.wall_seconds else 0.0
        return (f"{self.rows} rows in {self.shards_written} new shards "
                f"({self.shards_skipped} already done), {self.wall_seconds:.1f} s, "
                f"{rate:.0f} rows/s")


def generate(config: LabelConfig, out, workers: Optional[int] = None,
             scheduler: Optional[str] = None, progress: bool = False,
             command: Optional[str] = None) -> Summary:
    """Write the labels of `config` into folder `out`; shards already there are kept.

    `workers` processes (default: all cores) share the shards; with `scheduler`, the address
    of a Dask scheduler, the shards run on that cluster instead. A folder that holds a run
    with other options is refused with the option that differs.
    """
    start = time.perf_counter()
    workers = whole_number("workers", workers, least=1, error=LabelsError) \
        if workers is not None else (os.cpu_count() or 1)
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise LabelsError(f"cannot create the output folder {out}: {err.strerror or err}") from None
    manifest = open_manifest(config, out, command)
    todo = [s for s in range(config.shards) if not (out / shard_name(config, s)).exists()]
    skipped = config.shards - len(todo)
    # Worker processes start here, before the progress bar's thread exists (they are forked).
    results = _run_shards(config, todo, workers, scheduler)
    bar = None
    rows = 0
    search_seconds = 0.0
    try:
        bar = _progress_bar(config, todo, progress)
        for shard, columns, seconds in results:
            write_atomically(out / shard_name(config, shard), encode(config, columns))
            rows += len(columns["deal_id"])
            search_seconds += seconds
            if bar is not None:
                bar.update(len(config.shard_deals(shard)))
                bar.set_postfix_str(f"{rows / (time.perf_counter() - start):.0f} rows/s")
    finally:
        results.close()     # Ctrl-C or an error: stop the workers now, not after their shard
        if bar is not None:
            bar.close()
    finish_manifest(manifest, config, out)
    return Summary(rows, len(todo), skipped, time.perf_counter() - start, search_seconds)


def _progress_bar(config: LabelConfig, todo: List[int], enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm  # type: ignore[import-untyped]
    done = config.deals - sum(len(config.shard_deals(s)) for s in todo)
    return tqdm(total=config.deals, initial=done, unit="deal", file=sys.stderr,
                dynamic_ncols=True)


def _run_shards(config: LabelConfig, todo: List[int], workers: int, scheduler: Optional[str]):
    """(shard, columns, search seconds) for every shard in `todo`, in the order they finish,
    from an iterator whose close() stops whatever still runs."""
    if scheduler is not None:
        return _run_on_dask(config, todo, scheduler)
    if workers == 1 or len(todo) <= 1:
        return (timed_shard(config, shard) for shard in todo)
    return _ProcessPool(config, todo, min(workers, len(todo)))


class _ProcessPool:
    """Worker processes, each with a pipe of its own: the pool hands out one shard at a time
    to each, and a worker that dies (killed, out of memory) ends the run with a clear error
    instead of a shard that never comes back."""

    def __init__(self, config: LabelConfig, todo: List[int], workers: int):
        import multiprocessing
        # fork on Linux: no `if __name__ == "__main__"` needed in the caller's script.
        method = "fork" if sys.platform.startswith("linux") else "spawn"
        context: Any = multiprocessing.get_context(method)
        self.todo = list(reversed(todo))        # popped from the end: lowest shard first
        self.workers: List[Tuple[Any, Connection]] = []
        self.results = self._collect()          # a generator: runs from the first next()
        try:
            for _ in range(workers):
                ours, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(config, theirs), daemon=True)
                process.start()
                theirs.close()      # only the worker holds its end: its death reads as EOF
                self.workers.append((process, ours))
        except BaseException:
            self.close()
            raise

    def __iter__(self) -> Iterator[ShardResult]:
        return self.results

    def _collect(self) -> Generator[ShardResult, None, None]:
        busy: List[Connection] = []
        for _, connection in self.workers:      # as many workers as shards at most
            self._send(connection, self.todo.pop())
            busy.append(connection)
        while busy:
            for connection in cast(List[Connection], wait(busy)):
                try:
                    failed, result = connection.recv()
                except (EOFError, OSError):
                    raise LabelsError(_WORKER_DIED) from None
                if failed:
                    raise result
                if self.todo:
                    self._send(connection, self.todo.pop())
                else:
                    self._send(connection, None)
                    busy.remove(connection)
                yield result

    @staticmethod
    def _send(connection: Connection, shard: Optional[int]) -> None:
        try:
            connection.send(shard)
        except OSError:
            raise LabelsError(_WORKER_DIED) from None

    def close(self) -> None:
        """Stop every worker now (a finished one has left already) and wait for it."""
        self.results.close()
        for process, connection in self.workers:
            if process.is_alive():
                process.terminate()
            process.join()
            connection.close()
        self.workers = []


def _serve(config: LabelConfig, connection: Connection) -> None:
    """A worker process: shard numbers in, (failed, result or error) out; None ends it."""
    # Ctrl-C goes to the whole process group: the parent stops the pool, the workers wait.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            shard = connection.recv()
        except EOFError:        # the parent is gone
            return
        if shard is None:
            return
        message: Tuple[bool, Any]
        try:
            message = (False, timed_shard(config, shard))
        except Exception as err:
            message = (True, err)
        try:
            connection.send(message)
        except OSError:         # the parent is gone
            return


def _run_on_dask(config: LabelConfig, todo: List[int], scheduler: str) -> Iterator[ShardResult]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise LabelsError("--scheduler needs Dask: python -m pip install "
                          "'klaverjas-solver[cluster]'") from None
    try:
        client = Client(scheduler, timeout="20s", set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise LabelsError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    try:
        futures = [client.submit(timed_shard, config, shard, pure=False) for shard in todo]
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        client.close()
