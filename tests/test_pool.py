"""The one pool of worker processes (solver._pool), shared by the labels and the arena: spawned
workers, results in order or as they finish, errors carried back, a dead worker named."""
import functools
import os
import signal
import subprocess
import sys
import threading

import pytest

import worker_fakes
from solver._pool import WorkerPool
from solver._progress import progress_bar
from solver.errors import BotError, LabelsError


def results(tasks, ordered, workers=2, setup=functools.partial(worker_fakes.marked, 100)):
    with WorkerPool(setup, tasks, workers, LabelsError, "a worker died", ordered) as pool:
        return list(pool)


def test_ordered_results_come_in_the_order_of_the_tasks():
    assert [r for r, _ in results(range(8), ordered=True)] == list(range(100, 108))


def test_unordered_results_are_every_task_once():
    assert sorted(r for r, _ in results(range(8), ordered=False)) == list(range(100, 108))


def test_the_workers_are_fresh_interpreters_not_forks(monkeypatch):
    # A fork would see the parent's change; a spawned worker imports the module anew (and so
    # runs safely whatever threads the parent has).
    monkeypatch.setattr(worker_fakes, "MARK", "changed in the parent")
    assert {mark for _, mark in results(range(3), ordered=True)} == {"as imported"}


def test_an_error_a_task_raises_reaches_the_caller():
    with pytest.raises(ValueError, match="task 13 is unlucky"):
        results(range(10, 16), ordered=False)


def test_an_error_of_the_setup_reaches_the_caller():
    with pytest.raises(ValueError, match="no setup today"):
        results(range(3), ordered=True, setup=worker_fakes.failing_setup)


def test_work_that_cannot_be_sent_to_a_worker_is_the_callers_error():
    with pytest.raises(BotError, match="cannot be sent to them .*top level of an importable "
                                       "module, or use one worker"):
        WorkerPool(lambda: str, range(3), 2, BotError, "a worker died")


def test_a_dead_worker_is_the_callers_error_and_close_ends_the_others():
    pool = WorkerPool(worker_fakes.dying_arena, range(4), 2, BotError, "a worker died")
    with pytest.raises(BotError, match="a worker died"):
        list(pool)
    pool.close()
    assert pool.workers() == []


def test_close_stops_busy_workers_at_once():
    pool = WorkerPool(functools.partial(worker_fakes.marked, 0), iter(range(10**6)), 2,
                      LabelsError, "a worker died")
    first = next(iter(pool))
    pids = pool.workers()
    pool.close()
    assert first is not None and len(pids) == 2
    for pid in pids:
        with pytest.raises(OSError):
            os.kill(pid, 0)     # ended and reaped


def test_no_progress_bar_without_stderr_or_when_not_asked(monkeypatch):
    assert progress_bar(10, "deal", enabled=False) is None
    monkeypatch.setattr("sys.stderr", None)
    assert progress_bar(10, "deal", enabled=True) is None


def test_the_workers_ignore_ctrl_c_which_the_parent_handles():
    # Ctrl-C reaches the whole process group; the parent stops the pool.
    pool = WorkerPool(functools.partial(worker_fakes.marked, 0), iter(range(10**6)), 1,
                      LabelsError, "a worker died")
    try:
        next(iter(pool))
        os.kill(pool.workers()[0], signal.SIGINT)
        assert next(iter(pool)) is not None      # still working
    finally:
        pool.close()


def test_workers_started_from_a_thread_that_ends_live_on():
    # The kernel's parent-death signal follows the thread that started a process: a pool
    # started by a short-lived thread (a server's request) must not lose its workers when the
    # thread ends. The thread takes the first result (the workers are then set up), then ends.
    started = []

    def start() -> None:
        pool = WorkerPool(functools.partial(worker_fakes.marked, 100), range(12), 2, LabelsError,
                          "a worker died", True)
        started.append((pool, next(iter(pool))))
    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
    pool, first = started[0]
    with pool:
        assert [first[0]] + [r for r, _ in pool] == list(range(100, 112))


# The kernel hands a process's Ctrl-C to any of its threads that does not block it: NumPy's
# BLAS threads, a batch's. Python then only marks it for the main thread, which must not sleep
# on its workers' pipes until a result comes (for a deal of a slow bot, minutes).
CAUGHT_BY_ANOTHER_THREAD = """
import sys, signal, threading
import worker_fakes
from solver._pool import WorkerPool
from solver.errors import LabelsError

def catch_ctrl_c():
    sys.stdin.readline()
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)

threading.Thread(target=catch_ctrl_c, daemon=True).start()
try:
    list(WorkerPool(worker_fakes.busy_for_ever, range(2), 1, LabelsError, "a worker died"))
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs pthread_kill")
def test_ctrl_c_that_another_thread_catches_stops_the_pool():
    proc = subprocess.Popen([sys.executable, "-c", CAUGHT_BY_ANOTHER_THREAD],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            cwd=os.path.dirname(__file__))
    try:
        assert proc.stdout.readline() == "busy\n"    # the parent now waits on its worker
        proc.stdin.write("now\n")
        proc.stdin.flush()
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert out == "interrupted\n" and proc.returncode == 0
