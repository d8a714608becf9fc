"""Collection for the whole repository. The docstring examples of solver.openspiel and
solver.pettingzoo need the `bots` extra (OpenSpiel has wheels for Python 3.11+ only): where it
is not installed those modules are not collected, and their tests in tests/ skip themselves.

Hypothesis profiles: "ci" (where CI is set) draws the same examples on every run, so that a
red CI is reproducible and a green one is not luck; "dev" (elsewhere) draws new examples each
run; "slow" draws ten times as many, for a long search: HYPOTHESIS_PROFILE=slow.
"""
import importlib.util
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev")
settings.register_profile("slow", max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or
                      ("ci" if os.environ.get("CI") else "dev"))

NEEDS = {"openspiel": ("pyspiel",), "pettingzoo": ("pyspiel", "pettingzoo")}


def pytest_ignore_collect(collection_path, config):
    if collection_path.parent.name == "solver" and collection_path.name in NEEDS:
        if any(importlib.util.find_spec(module) is None for module in NEEDS[collection_path.name]):
            return True
    return None
