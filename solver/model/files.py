"""Writing a file whole or not at all: the one way the package replaces a file it writes (a
report, a label shard, a manifest), so that a full disk or a kill half-way never leaves a
truncated file in place of an earlier one.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "page.html"
>>> write_whole(path, "<p>hello</p>")
>>> path.read_text()
'<p>hello</p>'
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable, Optional, Union

# The ending of a file being written, before it is renamed to its name.
TEMPORARY_SUFFIX = ".tmp"


def write_whole(path: Union[str, "os.PathLike[str]"], data: Union[str, bytes, Iterable[bytes]]
                ) -> None:
    """Write `data` (text as UTF-8, bytes, or pieces of bytes) to a temporary name of this
    call's own in `path`'s folder, then rename it to `path`: the file is complete or as it
    was, and two writers of a folder never share a name. The file gets the mode any new file
    of the user gets (0666 less the umask), not mkstemp's private 0600.

    An OSError (a full disk, a folder without permission) is raised as it is, with the
    temporary file removed."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    temporary: Optional[str] = None
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                             suffix=TEMPORARY_SUFFIX)
        with open(handle, "wb") as f:
            os.fchmod(f.fileno(), 0o666 & ~_umask())
            for piece in [data] if isinstance(data, bytes) else data:
                f.write(piece)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
        temporary = None
    finally:
        if temporary is not None:   # failed, or stopped (Ctrl-C, SIGTERM) half-way
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _umask() -> int:
    """The process's umask (read by setting it, the only way POSIX offers, and setting it
    back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
