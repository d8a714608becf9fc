"""What `klaverjas labels --verify DIR` prints, and its exit status.

>>> import tempfile
>>> from solver.labels import LabelConfig, generate
>>> out = tempfile.mkdtemp()
>>> _ = generate(LabelConfig(deals=2, positions="root", format="npz"), out, workers=1)
>>> verify_report(out)[1]
0
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Tuple, Union

from .shards import MANIFEST, read_manifest, verify


def verify_report(folder: Union[str, "os.PathLike[str]"]) -> Tuple[str, int]:
    """The report on `folder` and the exit status: 0 when every shard is the one its run
    wrote, 1 when not, with a line for each bad shard saying what is wrong. A folder that is
    not a labels folder raises LabelsError."""
    folder = Path(folder)
    bad = verify(folder)
    _, config = read_manifest(folder)
    if not bad:
        return f"{folder}: all {config.shards} shards match {MANIFEST}", 0
    lines = [f"{folder / name}: {problem}" for name, problem in bad.items()]
    lines.append(f"{len(bad)} of {config.shards} shards are not the ones the run wrote: run its "
                 f"command again to write them")
    return "\n".join(lines), 1
