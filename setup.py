"""Build the Cython core. Everything else is declared in pyproject.toml."""
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "solver._engine",
        ["solver/_engine.pyx"],
        extra_compile_args=["-O3"],
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
