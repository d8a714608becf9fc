"""A worker process ends with its parent: the pool's workers (`solver._pool`, for the labels
and the arena) call `end_with_parent` first, so that none outlives a parent killed by any
signal (kill -9 included). An orphan would search on for nobody, and hold the parent's standard output open,
so that a reader of it (`klaverjas arena ... | jq`) would never see the end.

Needs only the standard library: every layer may use it.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1       # from <linux/prctl.h>
# How often a worker without prctl looks whether its parent is still there.
_WATCH_SECONDS = 0.2


def end_with_parent(parent: int, by_kernel: bool = True) -> None:
    """End this process within a second of the death of `parent` (the pid of the process that
    started it, passed along: it may have died already). On Linux the kernel sends SIGKILL
    when the parent dies (prctl PR_SET_PDEATHSIG); elsewhere, or without `by_kernel`, a thread
    watches the parent's pid (the search runs without the GIL, so the thread gets its turn).

    The kernel's signal comes when the parent's *thread* that started this process ends, not
    its process: a parent that starts workers from a thread other than its main one (a server's
    request, say) passes `by_kernel=False`, so that they outlive that thread."""
    asked = False
    if by_kernel and sys.platform.startswith("linux"):
        import ctypes
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            asked = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            pass
    if not asked:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(_WATCH_SECONDS)
            os._exit(1)
        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:      # it died before we asked
        os._exit(1)
