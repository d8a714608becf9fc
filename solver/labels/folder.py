"""A labels folder while a run writes it: one run at a time, the manifest of the run it holds
(a run with other options is refused), and what a resume keeps: only the shards whose SHA-256
is the one their run recorded.

>>> import tempfile
>>> from .config import LabelConfig
>>> out = Path(tempfile.mkdtemp())
>>> with locked(out):
...     with locked(out):
...         pass  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.errors.LabelsError: ... is being written by another labels run (pid ...): wait for it to end, or use another folder
"""
from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from ..errors import LabelsError
from .config import LabelConfig
from ..model.files import TEMPORARY_SUFFIX
from .shards import (CHECKSUMS, MANIFEST, ShardDigests, new_manifest, read_manifest, shard_name,
                     write_manifest)

# Held (flock) by the run writing the folder, and holding its pid. The file stays: removing a
# lock file races with a run that opens it at that moment.
LOCK = ".lock"

# The lock files this process holds open. A forked child (a worker) closes its copies at once:
# the lock stays the parent's, and goes the moment the parent ends, not when its last worker does.
_held: Set[int] = set()


def _close_held_in_child() -> None:
    for handle in _held:
        try:
            os.close(handle)
        except OSError:
            pass
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_held_in_child)


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold `folder` for one run: another run into it is refused at once, naming its pid.
    The kernel drops the lock when the process ends, however it ends."""
    try:
        import fcntl
    except ImportError:         # not Unix: no lock to take
        yield
        return
    path = folder / LOCK
    try:
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise LabelsError(f"cannot create {path}: {err.strerror or err}") from None
    try:
        # Taking the lock and writing the pid are one step for every other run: both happen
        # under the folder's short guard, under which a refused run reads the pid.
        with _guard(folder, fcntl):
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as err:
                if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise LabelsError(f"cannot lock {path}: {err.strerror or err}") from None
                holder = os.pread(handle, 32, 0).decode("ascii", "replace").strip()
                raise LabelsError(f"{folder} is being written by another labels run "
                                  f"(pid {holder or 'unknown'}): wait for it to end, or use "
                                  f"another folder") from None
            try:
                os.ftruncate(handle, 0)
                os.pwrite(handle, f"{os.getpid()}\n".encode(), 0)
            except OSError as err:      # a full disk
                raise LabelsError(f"cannot write {path}: {err.strerror or err}") from err
        _held.add(handle)
        try:
            yield
        finally:
            _held.discard(handle)
    finally:
        os.close(handle)        # releases the lock


@contextmanager
def _guard(folder: Path, fcntl: Any) -> Iterator[None]:
    """The folder itself locked for the moment it takes to take or test the run's lock. A
    run holds it only for those few system calls, and never while it waits for anything."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError as err:
        raise LabelsError(f"cannot open {folder}: {err.strerror or err}") from None
    _held.add(handle)       # a worker forked meanwhile must not keep it
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError as err:
            raise LabelsError(f"cannot lock {folder}: {err.strerror or err}") from None
        yield
    finally:
        _held.discard(handle)
        os.close(handle)


def open_manifest(config: LabelConfig, folder: Path, command: Optional[str]) -> Dict[str, Any]:
    """The manifest of `folder`: the one there when it holds a run of `config` (a run with
    other options is refused, naming them), or a new one, written now."""
    if not (folder / MANIFEST).exists():
        manifest = new_manifest(config, command)
        write_manifest(folder, manifest)
        return manifest
    try:
        manifest, earlier = read_manifest(folder)
    except LabelsError as err:
        raise LabelsError(f"{err}; use another folder") from None
    if earlier.to_dict() != config.to_dict():
        raise LabelsError(f"{folder} holds a run with {earlier.differences(config)}: use "
                          f"another folder, or the same options to resume")
    return manifest


def remove_temporaries(folder: Path) -> None:
    """Remove what runs stopped half-way left (the caller holds the folder: none is live)."""
    for path in folder.glob(f".*{TEMPORARY_SUFFIX}"):
        if path.name.startswith((".shard-", f".{MANIFEST}.")):
            try:
                path.unlink()
            except OSError:
                pass


def check_kept(config: LabelConfig, folder: Path,
               digests: ShardDigests) -> Tuple[int, int, List[str]]:
    """Check every shard file in `folder` against its recorded SHA-256, and remove those that
    differ or have none, to be written again: (shards kept, their deals, the removed ones)."""
    kept = deals = 0
    redo: List[str] = []
    for shard in range(config.shards):
        path = folder / shard_name(config, shard)
        problem = digests.problem(shard)
        if problem == "missing":
            continue
        if problem is None:
            kept += 1
            deals += len(config.shard_deals(shard))
            continue
        redo.append(path.name)
        digests.forget(shard)
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as err:
            raise LabelsError(f"cannot remove {path}, which is not the shard its run wrote "
                              f"({problem}): {err.strerror or err}") from None
    return kept, deals, redo


def missing_shards(config: LabelConfig, folder: Path) -> Iterator[int]:
    """The shards not written yet, lowest first, found one by one as the run asks for them."""
    return (shard for shard in range(config.shards)
            if not (folder / shard_name(config, shard)).exists())


def finish_manifest(manifest: Dict[str, Any], config: LabelConfig, folder: Path,
                    digests: ShardDigests) -> None:
    """Record every shard's deals and SHA-256 (each one written or checked by this run) in the
    manifest, mark the run complete, and drop the per-shard record it replaces."""
    def entries() -> Iterator[Tuple[str, Dict[str, Any]]]:
        for shard in range(config.shards):
            digest = digests.hexdigest(shard)
            if digest is None:
                raise LabelsError(f"{folder / shard_name(config, shard)} was neither written nor "
                                  f"checked by this run: run the same command again")
            deals = config.shard_deals(shard)
            yield shard_name(config, shard), {"deals": [deals.start, deals.stop], "sha256": digest}
    manifest["complete"] = True
    write_manifest(folder, manifest, entries())
    digests.close()
    try:
        (folder / CHECKSUMS).unlink()
    except FileNotFoundError:
        pass
