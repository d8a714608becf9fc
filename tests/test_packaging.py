"""The compiled engine is present, current, and fails to import with a message a user can act on."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from solver.engine import _engine
from solver.engine._source_hash import SOURCES, source_hash

PACKAGE = Path(solver.__file__).parent
ENGINE = PACKAGE / "engine"


def test_compiled_engine_is_not_older_than_its_sources():
    built = Path(_engine.__file__).stat().st_mtime
    for name in SOURCES:
        assert (ENGINE / name).stat().st_mtime <= built, \
            f"{name} is newer than {Path(_engine.__file__).name}: run `python -m pip install -e .`"


def test_compiled_engine_was_built_from_these_sources():
    assert _engine.BUILT_FROM == source_hash(ENGINE)


def import_copy(tmp_path, change):
    copy = tmp_path / "solver"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    change(copy)
    # -S: no site-packages, so the copy is imported rather than the installed package.
    return subprocess.run([sys.executable, "-S", "-c", "from solver import solve"], cwd=tmp_path,
                          capture_output=True, text=True)


def test_missing_extension_gives_a_readable_import_error(tmp_path):
    def remove_extension(copy):
        for built in copy.glob("engine/_engine.*.so"):
            built.unlink()
        for built in copy.glob("engine/_engine.*.pyd"):
            built.unlink()
    result = import_copy(tmp_path, remove_extension)
    assert result.returncode != 0
    assert "compiled engine (solver/engine/_engine) is missing" in result.stderr
    assert "pip install -e ." in result.stderr


def test_stale_extension_gives_a_readable_import_error(tmp_path):
    def edit_source(copy):
        with open(copy / "engine" / "_engine.pyx", "a") as f:
            f.write("\n# an edit after the build\n")
    result = import_copy(tmp_path, edit_source)
    assert result.returncode != 0
    assert "compiled engine is stale" in result.stderr


@pytest.mark.parametrize("name", ["py.typed", "engine/_engine.pyi"])
def test_typing_files_ship_with_the_package(name):
    assert (PACKAGE / name).exists()


def test_engine_counters_are_compiled_in_only_on_request():
    from solver import Game, Solver
    from solver.model.deal import Deal
    solver = Solver(table_mb=1)
    game = Game(Deal.random(1), "H", "N", "NS")
    try:
        before = solver.engine.counters()
    except RuntimeError as err:       # the normal build
        assert "KLAVERJAS_ENGINE_COUNTERS=1" in str(err)
        return
    solver.value(game, "points")
    after = solver.engine.counters()
    grown = {name: after[name] - before[name] for name in after}
    assert grown["table_probes"] >= grown["table_hits"] >= grown["table_cutoffs"] > 0
    assert grown["killer_cutoffs"] > 0


def test_the_fingerprint_covers_every_engine_source():
    # A unit missing from SOURCES could change without the build being reported as stale.
    included = re.findall(r'^include "([^"]+)"', (ENGINE / "_engine.pyx").read_text(), re.M)
    assert sorted(SOURCES) == sorted(["_engine.pyx", "_engine.pxd", *included])
