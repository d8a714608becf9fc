"""The one progress bar of the package's long runs (labels, the arena): tqdm on stderr.

Needs only the standard library until a bar is asked for: every layer may use it.
"""
from __future__ import annotations

import sys
from typing import Any, Optional


def progress_bar(total: int, unit: str, enabled: bool, done: int = 0) -> Optional[Any]:
    """A bar of `total` `unit`s on stderr starting at `done`, or None when not `enabled` or
    there is no stderr to draw on (pythonw, a service)."""
    if not enabled or sys.stderr is None:
        return None
    from tqdm import tqdm
    return tqdm(total=total, initial=done, unit=unit, file=sys.stderr, dynamic_ncols=True)
