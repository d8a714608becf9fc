"""The one place the compiled engine is imported, with errors a user can act on."""
from pathlib import Path

from ._source_hash import source_hash

_REBUILD = "Rebuild it from the project folder with `python -m pip install -e .`."

try:
    from . import _engine
except ImportError as err:
    raise ImportError(
        f"solver's compiled engine (solver/engine/_engine) is missing or was built for another "
        f"Python. {_REBUILD} (Original error: {err})") from err

if source_hash(Path(__file__).parent) not in (None, _engine.BUILT_FROM):
    raise ImportError(
        "solver's compiled engine is stale: solver/engine/_engine.pyx, .pxd, .pxi or _portable.h "
        f"changed after it was built. {_REBUILD}")

engine = _engine
