"""A labels run: `generate` shares out the shards that are not written yet, among local worker
processes or on a Dask cluster, writes each as it arrives (holding no more than the shards in
flight), and ends with the manifest.

>>> import tempfile
>>> summary = generate(LabelConfig(deals=4, positions="root", format="npz"), tempfile.mkdtemp())
>>> summary.rows
4
"""
from __future__ import annotations

import itertools
import os
import re
import signal
import socket
import threading
import time
from contextlib import contextmanager
from functools import partial
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import (Any, Callable, Dict, Generator, Iterator, List, NoReturn, Optional,
                    Protocol, Tuple, Union)

import numpy as np

from .._pool import WorkerPool
from .._progress import progress_bar
from ..errors import LabelsError, quote, whole_number
from .config import LabelConfig
from .folder import (check_kept, finish_manifest, locked, missing_shards, open_manifest,
                     remove_temporaries)
from .shards import ShardDigests, encode, shard_name, write_atomically
from .worker import timed_part, timed_shard

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
    shards_redone: Tuple[str, ...] = ()     # found in the folder, not matching the manifest

    def __str__(self) -> str:
        rate = self.rows / self.wall_seconds if self.wall_seconds else 0.0
        text = (f"{self.rows} rows in {self.shards_written} new shards "
                f"({self.shards_skipped} already done), {self.wall_seconds:.1f} s, "
                f"{rate:.0f} rows/s")
        if self.shards_redone:
            count = len(self.shards_redone)
            names = ", ".join(self.shards_redone[:_NAMES_SHOWN])
            if count > _NAMES_SHOWN:
                names += f" and {count - _NAMES_SHOWN} more"
            text += (f"; redid {count} {'shard' if count == 1 else 'shards'} whose contents "
                     f"did not match the manifest: {names}")
        return text


_NAMES_SHOWN = 5


def generate(config: LabelConfig, out: Union[str, "os.PathLike[str]"],
             workers: Optional[int] = None,
             scheduler: Optional[str] = None, progress: bool = False,
             command: Optional[str] = None) -> Summary:
    """Write the labels of `config` into folder `out`; shards already there are kept when
    their SHA-256 is the one their run recorded, and written again when not.

    `workers` processes (default: all cores) share the shards; with `scheduler`, the address
    of a Dask scheduler (tcp://host:port), the shards run on that cluster instead. A folder
    that holds a run with other options is refused with the options that differ, and one that
    another run is writing with that run's pid. Run from the main thread, SIGTERM stops the run
    as Ctrl-C does (nothing half-written is left) and then exits with status 143.
    """
    start = time.perf_counter()
    if not isinstance(config, LabelConfig):
        raise LabelsError(f"config must be a LabelConfig, got {quote(config)} "
                          f"(LabelConfig.from_dict reads a dict)")
    workers = whole_number("workers", workers, least=1, error=LabelsError) \
        if workers is not None else (os.cpu_count() or 1)
    if scheduler is not None:
        check_scheduler(scheduler)
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise LabelsError(f"cannot create the output folder {out}: {err.strerror or err}") from None
    with locked(out), _sigterm_stops_the_run():
        manifest = open_manifest(config, out, command)
        remove_temporaries(out)
        digests = ShardDigests(config, out, manifest)
        manifest["shards"] = {}     # in `digests` now, and written from there at the end
        try:
            kept, kept_deals, redone = check_kept(config, out, digests)
            todo = config.shards - kept
            results = _run_shards(config, missing_shards(config, out), todo, workers, scheduler)
            bar = None
            rows = 0
            search_seconds = 0.0
            try:
                bar = progress_bar(config.deals, "deal", progress, done=kept_deals)
                for shard, columns, seconds in results:
                    data = encode(config, columns)
                    # Recorded first: a shard on disk always has its SHA-256, however the run ends.
                    digests.record(shard, data)
                    write_atomically(out / shard_name(config, shard), data)
                    rows += len(columns["deal_id"])
                    search_seconds += seconds
                    del columns, data       # hold no finished shard while waiting for the next
                    if bar is not None:
                        bar.update(len(config.shard_deals(shard)))
                        bar.set_postfix_str(f"{rows / (time.perf_counter() - start):.0f} rows/s")
            finally:
                results.close()     # Ctrl-C or an error: stop the workers now, not after their shard
                if bar is not None:
                    bar.close()
            finish_manifest(manifest, config, out, digests)
        finally:
            digests.close()
    return Summary(rows, todo, kept, time.perf_counter() - start, search_seconds, tuple(redone))


@contextmanager
def _sigterm_stops_the_run() -> Iterator[None]:
    """SIGTERM (kill, a batch system's stop) unwinds the run as Ctrl-C does: the workers are
    stopped and only complete shards stay; then the process ends with 143 = 128 + SIGTERM, the
    status the default action gives. A handler the caller installed is left alone."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def stop(signum: int, frame: Optional[FrameType]) -> NoReturn:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)   # one stop: the cleanup runs undisturbed
        raise SystemExit(128 + signal.SIGTERM)
    signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Shards(Protocol):
    """Shards as they finish, and a way to stop whatever still runs."""

    def __iter__(self) -> Iterator[ShardResult]: ...

    def close(self) -> None: ...


def _run_shards(config: LabelConfig, todo: Iterator[int], count: int, workers: int,
                scheduler: Optional[str]) -> _Shards:
    """(shard, columns, search seconds) for each of the `count` shards `todo` yields, in the
    order they finish, from an iterator whose close() stops whatever still runs. `todo` is
    read one shard at a time, as a worker becomes free."""
    if scheduler is not None:
        return _run_on_dask(config, todo, scheduler)
    if workers == 1 or count == 0:
        return (timed_shard(config, shard) for shard in todo)
    parts = _parts_per_shard(config, count, workers)
    if parts == 1:
        return _pool(config, todo, min(workers, count))
    tasks = ((shard, part, parts) for shard in todo for part in range(parts))
    return _Reassembled(_pool(config, tasks, workers), parts)


def _parts_per_shard(config: LabelConfig, count: int, workers: int) -> int:
    """Into how many tasks each shard is split: 1 when there are shards enough to keep every
    worker busy to the end (twice as many as workers); else enough parts that there are
    (`klaverjas labels --deals 300` is one shard of the default 1000 deals, and ran on one
    core), but none smaller than a few deals."""
    if count >= 2 * workers:
        return 1
    return max(1, min(-(-2 * workers // count), config.deals_per_shard // _LEAST_PART_DEALS,
                      _MOST_PARTS))


# A part of a shard holds this many deals at least; a shard is split in at most so many.
_LEAST_PART_DEALS = 4
_MOST_PARTS = 64


class _Reassembled:
    """The shards of a pool that computes them in parts: (shard, columns, seconds) once
    every part of a shard is in, the parts' rows in deal order (the shard's rows never
    depend on which worker made them)."""

    def __init__(self, pool: WorkerPool[Any, Any], parts: int):
        self.pool = pool
        self.parts = parts
        self.results = self._collect()

    def __iter__(self) -> Iterator[ShardResult]:
        return self.results

    def _collect(self) -> Generator[ShardResult, None, None]:
        waiting: Dict[int, Dict[int, Tuple[Dict[str, np.ndarray], float]]] = {}
        result: Any
        for result in self.pool:
            (shard, part), columns, seconds = result
            done = waiting.setdefault(shard, {})
            done[part] = (columns, seconds)
            if len(done) < self.parts:
                continue
            del waiting[shard]
            ordered = [done[i] for i in range(self.parts)]
            yield (shard, {name: np.concatenate([c[name] for c, _ in ordered])
                           for name in ordered[0][0]}, sum(t for _, t in ordered))

    def close(self) -> None:
        """Stop the pool (see WorkerPool.close)."""
        self.results.close()
        self.pool.close()


def _shard_work(config: LabelConfig) -> Callable[[Any], Any]:
    """What a worker process does with each task: a shard's columns, or a part's (`timed_shard`,
    `timed_part`). Runs once in each worker, on the config the pool sent it."""
    def work(task: Any) -> Any:
        return timed_shard(config, task) if isinstance(task, int) else timed_part(config, *task)
    return work


def _pool(config: LabelConfig, tasks: Iterator[Any], workers: int) -> WorkerPool[Any, Any]:
    """`workers` processes doing `tasks`, results in the order they finish."""
    return WorkerPool(partial(_shard_work, config), tasks, workers, LabelsError, _WORKER_DIED)


# tcp://host:port, tls://host:port or host:port (TCP); inproc:// is a cluster in this process.
_ADDRESS = re.compile(r"(?:(tcp|tls)://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")
_CONNECT_SECONDS = 5


def check_scheduler(address: Any) -> None:
    """Check at once that `address` is a Dask scheduler's (tcp://host:port) and that one
    answers there: LabelsError naming it otherwise (Dask itself would wait, then print a
    traceback)."""
    if isinstance(address, str) and address.startswith("inproc://"):
        return
    match = _ADDRESS.fullmatch(address) if isinstance(address, str) else None
    if match is None or not 0 < int(match.group(3)) < 65536:
        raise LabelsError(f"scheduler {quote(address)} is not a Dask scheduler address: give "
                          f"tcp://host:port (tcp://10.0.0.5:8786, say)")
    _distributed()
    host = match.group(2).strip("[]")
    try:
        socket.create_connection((host, int(match.group(3))), timeout=_CONNECT_SECONDS).close()
    except OSError as err:
        reason = "no answer" if isinstance(err, socket.timeout) else (err.strerror or str(err))
        raise LabelsError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    if _identity(address if match.group(1) else f"tcp://{address}") != "Scheduler":
        raise LabelsError(f"{address} answers, but not as a Dask scheduler (the dashboard's "
                          f"port, or another service?)")


def _identity(address: str) -> Optional[str]:
    """What the Dask server at `address` says it is ("Scheduler"), or None when it does not
    answer as one within _CONNECT_SECONDS. Asked on a thread of its own, with its own event
    loop, so that a caller's running loop (Jupyter's) is no matter."""
    import asyncio
    from distributed.comm import connect

    async def ask() -> Any:
        comm = await connect(address, timeout=_CONNECT_SECONDS)
        try:
            await comm.write({"op": "identity"})
            return await asyncio.wait_for(comm.read(), _CONNECT_SECONDS)
        finally:
            comm.abort()
    answers: List[Any] = []

    def run() -> None:
        try:
            answers.append(asyncio.run(ask()))
        except Exception:       # garbage, a closed connection, no answer: not a scheduler
            answers.append(None)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join()
    answer = answers[0] if answers else None
    return answer.get("type") if isinstance(answer, dict) else None


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise LabelsError("--scheduler needs Dask: python -m pip install "
                          "'klaverjas-solver[cluster]'") from None
    return distributed


def _run_on_dask(config: LabelConfig, todo: Iterator[int], scheduler: str
                 ) -> Generator[ShardResult, None, None]:
    distributed = _distributed()
    Client, as_completed = distributed.Client, distributed.as_completed
    try:
        client = Client(scheduler, timeout="20s", set_as_default=False)
    except Exception as err:        # Dask raises OSError, TimeoutError and its own errors
        raise LabelsError(f"cannot connect to the Dask scheduler at {scheduler}: "
                          f"{str(err).splitlines()[0] if str(err) else type(err).__name__}") \
            from None
    try:
        # A few shards per thread of the cluster in flight: the client holds no more.
        window = max(4, 2 * sum(client.nthreads().values()))
        running = as_completed(loop=client.loop)
        for shard in itertools.islice(todo, window):
            running.add(client.submit(timed_shard, config, shard, pure=False))
        for future in running:
            result = future.result()
            del future
            following = next(todo, None)
            if following is not None:
                running.add(client.submit(timed_shard, config, following, pure=False))
            yield result
            del result
    finally:
        client.close()
