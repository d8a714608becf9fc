"""Build the Cython core. Everything else is declared in pyproject.toml."""
import os
import runpy
import sysconfig
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
source_hash = runpy.run_path(str(HERE / "solver" / "engine" / "_source_hash.py"))["source_hash"]

# Built into the module so that an import can tell a stale build (solver/engine/_compiled.py).
macros = [("KLAVERJAS_SOURCE_HASH", source_hash(HERE / "solver" / "engine"))]
# KLAVERJAS_ENGINE_COUNTERS=1 compiles in the counters of Engine.counters(); without it the
# search does no counting at all.
if os.environ.get("KLAVERJAS_ENGINE_COUNTERS") == "1":
    macros.append(("KLAVERJAS_ENGINE_COUNTERS", "1"))
# KLAVERJAS_ENGINE_ORACLE=1 compiles in Engine.attach_oracle (a perfect move order, for
# benchmarks/bench_limit.py, which builds its own copy); without it the search has no trace of it.
if os.environ.get("KLAVERJAS_ENGINE_ORACLE") == "1":
    macros.append(("KLAVERJAS_ENGINE_ORACLE", "1"))
# KLAVERJAS_PORTABLE=1 builds the plain-C fallbacks of solver/engine/_portable.h instead of the
# compiler's builtins, to test them where every compiler we build with has the builtins.
PORTABLE = os.environ.get("KLAVERJAS_PORTABLE") == "1"
if PORTABLE:
    macros.append(("KLAVERJAS_PORTABLE", "1"))


def compile_args(compiler_type):
    """The compiler flags: the builtins themselves are chosen in _portable.h."""
    if compiler_type == "msvc":
        return []            # setuptools already passes /O2; __popcnt needs no flag
    args = ["-O3"]
    # The engine counts cards with popcount: on x86-64 ask gcc and clang for the instruction
    # (every x86-64 processor since 2008 has it) instead of a library call. ARM has it anyway.
    # The target, not this machine: macOS can build x86-64 wheels on ARM.
    if sysconfig.get_platform().endswith(("x86_64", "amd64")) and not PORTABLE:
        args.append("-mpopcnt")
    return args


class BuildEngine(build_ext):
    """build_ext with the flags of the compiler it found."""

    def build_extensions(self):
        for extension in self.extensions:
            extension.extra_compile_args = compile_args(self.compiler.compiler_type)
        super().build_extensions()


extensions = [
    Extension(
        "solver.engine._engine",
        ["solver/engine/_engine.pyx"],
        depends=["solver/engine/_portable.h"],
        define_macros=macros,
    ),
]

setup(
    cmdclass={"build_ext": BuildEngine},
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
