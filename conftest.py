"""Collection for the whole repository. The docstring examples of solver.openspiel and
solver.pettingzoo need the `bots` extra (OpenSpiel has wheels for Python 3.11+ only): where it
is not installed those modules are not collected, and their tests in tests/ skip themselves."""
import importlib.util

NEEDS = {"openspiel": ("pyspiel",), "pettingzoo": ("pyspiel", "pettingzoo")}


def pytest_ignore_collect(collection_path, config):
    if collection_path.parent.name == "solver" and collection_path.name in NEEDS:
        if any(importlib.util.find_spec(module) is None for module in NEEDS[collection_path.name]):
            return True
    return None
