"""Work that tests change inside worker processes. The workers are spawned, fresh interpreters
that a test's monkeypatch does not reach, so a test patches the setup the pool sends them (the
labels' `solver.labels.run._shard_work`, the arena's `solver.arena.run._arena_work`) with one
of these, which the workers import by name and which change the work there."""
import os
import time

import numpy as np

from solver.labels import rows as rows_module, run as run_module

REAL_SHARD_WORK = run_module._shard_work


def broken_deal_3(config):
    """Deal 3's rows raise a RuntimeError."""
    real_rows = rows_module.deal_rows

    def broken(config, deal_id, solver):
        if deal_id == 3:
            raise RuntimeError("deal 3 is broken")
        return real_rows(config, deal_id, solver)
    rows_module.deal_rows = broken
    return REAL_SHARD_WORK(config)


def stuck_after_shard_0(config):
    """Every deal after the first two takes two minutes: the workers are busy for long."""
    real_rows = rows_module.deal_rows

    def stuck(config, deal_id, solver):
        if deal_id >= 2:
            time.sleep(120)
        return real_rows(config, deal_id, solver)
    rows_module.deal_rows = stuck
    return REAL_SHARD_WORK(config)


def cheap_rows(config):
    """The columns of real rows, eight a deal, without the search."""
    def cheap(config, deal_id, solver):
        return [{"deal_id": deal_id, "deal": np.zeros(32, np.int8), "trump": 0, "leader": 0,
                 "playing": 0, "played": np.full(32, -1, np.int8), "to_move": 0,
                 "values": np.zeros(32, np.int16), "best": 0} for _ in range(8)]
    rows_module.deal_rows = cheap
    return REAL_SHARD_WORK(config)


def dying_arena(*args):
    """An arena whose worker ends at its first deal, as a killed one does."""
    def die_at_once(deal_id):
        os._exit(9)
    return die_at_once


# -- for the pool itself -------------------------------------------------------------------------

MARK = "as imported"


def marked(offset):
    """Work that gives (task + offset, this process's MARK); task 13 raises a ValueError."""
    def work(task):
        if task == 13:
            raise ValueError("task 13 is unlucky")
        time.sleep(0.05 if task % 2 == 0 else 0)     # even tasks finish out of order
        return task + offset, MARK
    return work


def failing_setup():
    """A setup that fails in the worker."""
    raise ValueError("no setup today")


def busy_for_ever():
    """Work that says on stdout that it has begun, then never ends."""
    def work(task):
        print("busy", flush=True)
        time.sleep(3600)
    return work
