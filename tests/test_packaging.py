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
ROOT = Path(__file__).resolve().parents[1]
# The package is the source tree (an editable install), not an installed wheel.
CHECKOUT = (PACKAGE.parent / "setup.py").exists()


@pytest.mark.skipif(not CHECKOUT, reason="an installed wheel: its file times say nothing")
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


@pytest.mark.parametrize("source, comment", [("_engine.pyx", "# {}"), ("_portable.h", "/* {} */")])
def test_stale_extension_gives_a_readable_import_error(tmp_path, source, comment):
    def edit_source(copy):
        with open(copy / "engine" / source, "a") as f:
            f.write("\n" + comment.format("an edit after the build") + "\n")
    result = import_copy(tmp_path, edit_source)
    assert result.returncode != 0
    assert "compiled engine is stale" in result.stderr


def test_an_install_without_the_cython_sources_is_not_stale(tmp_path):
    # The fingerprint is checked only where the sources are; the compiled module is enough.
    def remove_sources(copy):
        for name in SOURCES:
            (copy / "engine" / name).unlink()
    copy = tmp_path / "solver"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    remove_sources(copy)
    # Not -S: the copy comes first on the path, and NumPy from the installed packages.
    result = subprocess.run([sys.executable, "-c", "import solver; print(solver.__file__); "
                             "print(solver.Solver(table_mb=1).value(solver.Game("
                             "solver.Deal.random(1), 'H', 'N', 'NS')))"],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    where, value = result.stdout.split()
    assert Path(where) == copy / "__init__.py" and value.lstrip("-").isdigit()


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


def test_the_oracle_is_compiled_in_only_on_request():
    from solver import Game, Solver
    from solver.model.deal import Deal
    game = Game(Deal.random(3), "S", "E", "EW")
    ordered, oracle = Solver(table_mb=1), Solver(table_mb=1)
    try:
        ordered.engine.attach_oracle(oracle.engine)
    except RuntimeError as err:       # the normal build
        assert "KLAVERJAS_ENGINE_ORACLE=1" in str(err)
        return
    plain = Solver(table_mb=1)
    values = plain.move_values(game)
    assert ordered.move_values(game) == values
    assert 0 < ordered.engine.nodes < plain.engine.nodes and oracle.engine.nodes > 0
    # Held to no card below the root, the oracle orders nothing: our own search, node for node.
    unordered = Solver(table_mb=1)
    unordered.engine.attach_oracle(Solver(table_mb=1).engine, 0)
    assert unordered.move_values(game) == values
    assert unordered.engine.nodes == plain.engine.nodes


def test_the_fingerprint_covers_every_engine_source():
    # A unit or header missing from SOURCES could change without the build being reported as
    # stale.
    included = re.findall(r'^include "([^"]+)"', (ENGINE / "_engine.pyx").read_text(), re.M)
    headers = {name for unit in ["_engine.pyx", "_engine.pxd", *included]
               for name in re.findall(r'^cdef extern from "([^"]+)"', (ENGINE / unit).read_text(), re.M)
               if (ENGINE / name).exists()}
    assert "_portable.h" in headers
    assert sorted(SOURCES) == sorted(["_engine.pyx", "_engine.pxd", *included, *headers])


# -- the portability header: each compiler's builtins and the plain-C fallback -------------------

BIT_CHECK = r"""
#include <stdio.h>
#include "_portable.h"
int main(void) {
    unsigned long value;
    while (scanf("%lu", &value) == 1) {
        uint32_t cards = (uint32_t)value;
        kj_prefetch(&cards);
        printf("%d %d %d\n", kj_popcount(cards), cards ? kj_lowest_bit(cards) : -1,
               cards ? kj_leading_zeros(cards) : -1);
    }
    return 0;
}
"""
VALUES = [0, 1, 2, 3, 0x80, 0xFF00, 0x01010101, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
          *(((i * 2654435761) ^ (i << 7)) % 2**32 for i in range(1, 300))]
# Under KLAVERJAS_PORTABLE=1 a builtin named here fails to compile: the fallback is what runs.
NO_BUILTINS = [f"-D__builtin_{name}=not_a_builtin_{name}"
               for name in ("popcount", "ctz", "clz", "prefetch")]
COMPILERS = [name for name in ("gcc", "clang") if shutil.which(name)] or ["no C compiler"]


def expected_bits(value):
    return (f"{bin(value).count('1')} {(value & -value).bit_length() - 1 if value else -1} "
            f"{32 - value.bit_length() if value else -1}")


@pytest.mark.parametrize("portable", [False, True], ids=["builtins", "plain-c"])
@pytest.mark.parametrize("compiler", COMPILERS)
def test_the_portability_header_counts_bits_with_each_compiler(tmp_path, compiler, portable):
    if not shutil.which(compiler):
        pytest.skip("needs gcc or clang")
    (tmp_path / "bits.c").write_text(BIT_CHECK)
    flags = ["-DKLAVERJAS_PORTABLE=1", *NO_BUILTINS] if portable else []
    subprocess.run([compiler, "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", *flags,
                    f"-I{ENGINE}", "bits.c", "-o", "bits"], cwd=tmp_path, check=True)
    done = subprocess.run([str(tmp_path / "bits")], input=" ".join(map(str, VALUES)),
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [expected_bits(v) for v in VALUES]


# -- wheels: the platforms cibuildwheel builds in CI (.github/workflows/wheels.yml) -------------

# (cibuildwheel's platform, architecture): the platform part of the wheels' identifiers
WHEELS = {("linux", "x86_64"): "manylinux_x86_64", ("linux", "aarch64"): "manylinux_aarch64",
          ("macos", "x86_64"): "macosx_x86_64", ("macos", "arm64"): "macosx_arm64",
          ("windows", "AMD64"): "win_amd64"}


@pytest.mark.parametrize("platform", ["linux", "macos", "windows"])
def test_cibuildwheel_builds_each_cpython_for_each_platform(platform):
    pytest.importorskip("cibuildwheel")
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("needs the project's pyproject.toml")
    listed = subprocess.run([sys.executable, "-m", "cibuildwheel", "--print-build-identifiers",
                             "--platform", platform], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    wanted = {tag for (system, _), tag in WHEELS.items() if system == platform}
    pythons = {identifier.split("-")[0] for identifier in listed}
    assert {identifier.split("-", 1)[1] for identifier in listed} == wanted
    assert len(listed) == len(pythons) * len(wanted)
    assert all(re.fullmatch(r"cp3\d+", python) for python in pythons), pythons  # no cp314t
    assert min(pythons, key=lambda python: int(python[3:])) == "cp39"   # requires-python


def test_the_wheel_workflow_runs_each_platform_on_its_own_runner():
    yaml = pytest.importorskip("yaml")
    workflow = ROOT / ".github" / "workflows" / "wheels.yml"
    if not workflow.exists():
        pytest.skip("needs the project's .github folder")
    jobs = yaml.safe_load(workflow.read_text())["jobs"]["wheels"]["strategy"]["matrix"]["include"]
    system = {"ubuntu": "linux", "macos": "macos", "windows": "windows"}
    assert sorted((system[job["runner"].split("-")[0]], job["archs"]) for job in jobs) \
        == sorted(WHEELS)


def test_every_package_folder_is_listed_for_the_wheel():
    """A folder of the package that pyproject.toml does not list is left out of the wheel."""
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("needs the project's pyproject.toml")
    tomllib = pytest.importorskip("tomllib")
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    folders = {".".join(path.parent.relative_to(PACKAGE.parent).parts)
               for path in PACKAGE.rglob("__init__.py")}
    assert folders <= listed, sorted(folders - listed)
