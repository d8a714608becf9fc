"""The package version: read by pyproject.toml at build time and by `solver.__version__`."""
__version__ = "0.2.0"
