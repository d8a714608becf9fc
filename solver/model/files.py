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

import errno
import os
import secrets
import stat
from pathlib import Path
from typing import Iterable, Optional, Tuple, Union

# The ending of a file being written, before it is renamed to its name.
TEMPORARY_SUFFIX = ".tmp"


def write_whole(path: Union[str, "os.PathLike[str]"], data: Union[str, bytes, Iterable[bytes]]
                ) -> None:
    """Write `data` (text as UTF-8, bytes, or pieces of bytes) to a temporary name of this
    call's own in `path`'s folder, then rename it to `path`: the file is complete or as it
    was, and two writers of a folder never share a name. A symbolic link is followed: the file
    it shows is replaced, the link stays. A device, a FIFO or /dev/stdout is written where it
    is (it cannot be replaced). The file gets the mode any new file
    of the user gets (0666 less the umask), not mkstemp's private 0600.

    An OSError (a full disk, a folder without permission) is raised as it is, with the
    temporary file removed."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    pieces = [data] if isinstance(data, bytes) else data
    target = _renamable(path)
    if target is None:
        _write_in_place(path, pieces)
        return
    temporary: Optional[str] = None
    try:
        handle, temporary = _new_temporary(target)
        with open(handle, "wb") as f:
            for piece in pieces:
                f.write(piece)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
        temporary = None
    finally:
        if temporary is not None:   # failed, or stopped (Ctrl-C, SIGTERM) half-way
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _renamable(path: Path) -> Optional[Path]:
    """The regular file `path` names once its symbolic links are followed (renaming onto the
    link itself would replace the link, not the file it shows), or None when the file must be
    written where it is: a device (/dev/null, a terminal), a FIFO, or a file reached through a
    link into /proc (/dev/stdout: the process's own open output, which has no name of its
    own). A name that does not exist yet, or a link to one, is a new regular file."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
    except FileNotFoundError:
        pass
    for _ in range(_MOST_LINKS):
        if not path.is_symlink():
            return path
        if os.path.realpath(path.parent).startswith("/proc/"):
            return None
        path = path.parent / os.readlink(path)     # an absolute link replaces the folder
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))


def _write_in_place(path: Path, pieces: Iterable[bytes]) -> None:
    """Write to a file that is not renamed onto: appended to, as a shell's >> would (a FIFO or a
    device has no end to append at; the process's output redirected to a file keeps what was
    written before). Not synced: a pipe or a terminal cannot be."""
    with open(os.open(path, os.O_WRONLY | os.O_APPEND | _BINARY), "wb") as f:
        for piece in pieces:
            f.write(piece)


# As many links as the kernel follows in one name before it says ELOOP (Linux: 40).
_MOST_LINKS = 40


def _new_temporary(path: Path) -> Tuple[int, str]:
    """A new file beside `path`, under a name no other writer has, opened for writing. Made
    with mode 0o666 less the umask, as any file the user writes (mkstemp's 0o600 would keep a
    shared data set or a report from its readers)."""
    while True:
        name = str(path.parent / f".{path.name}.{secrets.token_hex(6)}{TEMPORARY_SUFFIX}")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o666), name
        except FileExistsError:
            continue


_BINARY = getattr(os, "O_BINARY", 0)     # Windows would otherwise translate newlines
