"""Build the Cython core. Everything else is declared in pyproject.toml."""
import os
import platform
import runpy
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
source_hash = runpy.run_path(str(HERE / "solver" / "engine" / "_source_hash.py"))["source_hash"]

# The engine counts cards with popcount: on x86-64 ask for the instruction (every x86-64
# processor since 2008 has it) instead of a library call; elsewhere the compiler decides.
compile_args = ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64") and sys.platform != "win32":
    compile_args.append("-mpopcnt")

# Built into the module so that an import can tell a stale build (solver/engine/_compiled.py).
macros = [("KLAVERJAS_SOURCE_HASH", source_hash(HERE / "solver" / "engine"))]
# KLAVERJAS_ENGINE_COUNTERS=1 compiles in the counters of Engine.counters(); without it the
# search does no counting at all.
if os.environ.get("KLAVERJAS_ENGINE_COUNTERS") == "1":
    macros.append(("KLAVERJAS_ENGINE_COUNTERS", "1"))

extensions = [
    Extension(
        "solver.engine._engine",
        ["solver/engine/_engine.pyx"],
        define_macros=macros,
        extra_compile_args=compile_args,
    ),
]

setup(
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
