"""The import contract's exceptions are what they say: each module named as a lazy importer
of the Jupyter hooks imports solver.html.jupyter only inside a function (its _repr_html_),
never at module level, where it would be a cycle that the contract's exception let through."""
import ast
import importlib
import inspect
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:   # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent


def contract(contract_id):
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return next(c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == contract_id)


def html_imports(module):
    """(line, whether inside a function) of each import of solver.html in `module` (the
    module as imported: the installed package's own file where the tests run on a wheel)."""
    tree = ast.parse(inspect.getsource(importlib.import_module(module)))
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.ImportFrom) and "html" in (child.module or "").split("."):
                found.append((child.lineno, inside))
            visit(child, inside)
    visit(tree, False)
    return found


IGNORED = contract("layers")["ignore_imports"]


def test_the_layers_name_each_lazy_importer_and_no_wildcard():
    assert IGNORED and all("*" not in line for line in IGNORED)
    assert {line.split(" -> ")[1] for line in IGNORED} == {"solver.html.jupyter"}


@pytest.mark.parametrize("ignored", IGNORED)
def test_each_named_importer_imports_the_hooks_only_inside_a_function(ignored):
    module = ignored.split(" -> ")[0]
    imports = html_imports(module)
    assert imports, f"{module} no longer imports the hooks: drop it from ignore_imports"
    assert all(inside for _, inside in imports), f"{module}: a module-level import of html"
