"""The fingerprint of the Cython sources, built into the extension to catch stale builds.

Used by setup.py (at build time) and by solver.engine._compiled (at import); imports nothing else.
"""
import hashlib
from pathlib import Path
from typing import Optional, Union

SOURCES = ("_engine.pyx", "_engine.pxd", "_trick.pxi", "_bounds.pxi", "_table.pxi",
           "_ordering.pxi", "_batch.pxi", "_portable.h")


def source_hash(folder: Union[str, Path]) -> Optional[str]:
    """Hash of the engine's sources in `folder`, or None when they are not there."""
    digest = hashlib.sha256()
    for name in SOURCES:
        path = Path(folder) / name
        if not path.exists():
            return None
        digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
    return digest.hexdigest()[:16]
