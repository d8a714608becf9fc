"""The rows a card network learns from: a labels folder with `sd_values` read into the
trump-first picture the network sees.

Per row: the observation of the player to move (`encode.from_columns`), suits renamed trump
first, kept as bytes (its numbers are zeros and ones); the target, each legal card's value
for the team to move minus the mean over the legal cards, in hundreds of points; which cards
are legal; and the deal, so that whole deals are held out.

The target is the single-dummy value (`sd_values`: the mean double-dummy value over N worlds
the player to move cannot tell apart) with the deal as dealt counted as one more world: its
double-dummy values (`values`) are a draw from those same worlds, and from the worlds as the
play so far made them likely, not uniformly. The observation never holds the hidden hands,
so the network learns what the player can know: the mean over the worlds, never one deal.
"""
from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from .. import encode
from .._pool import WorkerPool
from ..errors import TrainingError
from ..labels import LabelColumns, load
from ..labels.shards import read_manifest
from ..model.label_row import present_columns
from ..model.rules import Rules
from ..network.suits import canonical, canonical_cards, trumps_of

# Values are points (a team's minus the other's, up to a few hundred): in hundreds to train.
SCALE = 100.0
# Rows encoded per task of a worker.
CHUNK = 5000


@dataclass(frozen=True)
class TrainingRows:
    """The arrays of `training_rows`, one row per labelled position (canonical card order)."""

    features: np.ndarray    # uint8 (rows, encode.SIZE): the trump-first observation
    target: np.ndarray      # float32 (rows, 32): centred sd_values / SCALE; 0 where not legal
    legal: np.ndarray       # bool (rows, 32)
    deal_id: np.ndarray     # int64 (rows,)
    labels: Dict[str, Any]  # where they came from: the folder, its command, its options

    def __len__(self) -> int:
        return len(self.deal_id)

    def subset(self, rows: np.ndarray) -> "TrainingRows":
        """These rows only (a boolean mask or indices)."""
        return TrainingRows(self.features[rows], self.target[rows], self.legal[rows],
                            self.deal_id[rows], self.labels)


def training_rows(folders: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]],
                  workers: int = 1, verify: bool = True, dealt: bool = True) -> TrainingRows:
    """The rows of the labels folder `folders` (written with `--worlds N`, so that it has
    `sd_values`), or of several such folders written under the same rules, encoded by
    `workers` processes; `dealt`: the deal as dealt counts as one more world of the target
    (else `sd_values` alone). TrainingError if a folder has no sd_values or the folders'
    rules differ, LabelsError (naming the file) if one cannot be loaded.

    The deals of each further folder are numbered after those of the folders before it, so
    that every deal keeps its own number (and the held-out deals stay whole)."""
    paths = [folders] if isinstance(folders, (str, os.PathLike)) else list(folders)
    if not paths:
        raise TrainingError("no labels folder given: name at least one")
    parts: List[TrainingRows] = []
    first_deal = 0
    for path in paths:
        columns = load(path, verify=verify)
        where = f"labels folder {os.fsdecode(path)!r}"
        if "sd_values" not in columns:
            raise TrainingError(f"{where} has no sd_values column: write the labels with "
                                f"--worlds N (say 2) to train from them")
        if parts and columns.rules.to_dict() != parts[0].labels["rules"]:
            raise TrainingError(f"{where} was written under other rules than "
                                f"{os.fsdecode(paths[0])!r}: train on folders of one rules "
                                f"set")
        manifest, _ = read_manifest(Path(path))
        rows = rows_from_columns(columns, workers, {"folder": os.fsdecode(path),
                                                    "command": manifest.get("command")}, dealt)
        parts.append(dataclasses.replace(rows, deal_id=rows.deal_id + first_deal))
        first_deal += columns.config.deals
    if len(parts) == 1:
        return parts[0]
    return TrainingRows(np.concatenate([p.features for p in parts]),
                        np.concatenate([p.target for p in parts]),
                        np.concatenate([p.legal for p in parts]),
                        np.concatenate([p.deal_id for p in parts]),
                        {"rules": parts[0].labels["rules"], "target": parts[0].labels["target"],
                         "folders": [p.labels for p in parts]})


def rows_from_columns(columns: LabelColumns, workers: int = 1,
                      labels: Optional[Dict[str, Any]] = None,
                      dealt: bool = True) -> TrainingRows:
    """`training_rows` of columns already loaded (`solver.labels.load`); `labels` is added to
    what the rows record of where they came from."""
    if "sd_values" not in columns:
        raise TrainingError("these labels have no sd_values column: write them with "
                            "--worlds N (say 2) to train from them")
    config = columns.config
    labels = {**(labels or {}), "deals": config.deals, "seed": config.seed,
              "positions": config.positions, "play": config.play, "worlds": config.worlds,
              "skip_forced": config.skip_forced, "rules": config.rules.to_dict(),
              "target": "sd_values and the deal as dealt, one world more" if dealt else
              "sd_values"}
    x = _observations(columns, workers)
    values = np.asarray(columns["sd_values"], dtype=np.float64)
    legal = ~np.isnan(values)
    filled = np.where(legal, values, 0.0)
    if dealt:
        filled = (filled * config.worlds + np.where(legal, columns["values"], 0)) / \
            (config.worlds + 1)
    mean = filled.sum(axis=1, keepdims=True) / np.maximum(legal.sum(axis=1, keepdims=True), 1)
    target = np.where(legal, (filled - mean) / SCALE, 0.0).astype(np.float32)
    trumps = trumps_of(x)
    return TrainingRows(canonical(x).astype(np.uint8), canonical_cards(target, trumps),
                        canonical_cards(legal, trumps), np.asarray(columns["deal_id"]), labels)


def _observations(columns: LabelColumns, workers: int) -> np.ndarray:
    """`encode.from_columns(columns)`, in chunks over `workers` processes."""
    names = present_columns(columns)
    count = len(columns["played"])
    chunks = [{name: columns[name][start:start + CHUNK] for name in names}
              for start in range(0, count, CHUNK)]
    parts: List[np.ndarray]
    if workers <= 1 or len(chunks) <= 1:
        parts = [_encode_chunk(columns.rules, chunk) for chunk in chunks]
    else:
        setup = functools.partial(_encoder, columns.rules)
        with WorkerPool(setup, chunks, min(workers, len(chunks)), error=TrainingError,
                        died="a worker encoding the labels died", ordered=True) as pool:
            parts = list(pool)
    if not parts:
        raise TrainingError("the labels folder has no rows")
    result: np.ndarray = np.concatenate(parts)
    return result


def _encoder(rules: Rules) -> Callable[[Dict[str, np.ndarray]], np.ndarray]:
    """A worker's task: the observations of one chunk of rows (under `rules`)."""
    return functools.partial(_encode_chunk, rules)


def _encode_chunk(rules: Rules, chunk: Dict[str, np.ndarray]) -> np.ndarray:
    result: np.ndarray = encode.from_columns(chunk, rules)
    return result


def held_out(deal_id: np.ndarray, every: int = 10) -> np.ndarray:
    """Which rows are held out to judge the fit: those of every `every`-th deal (whole deals,
    so that no position of a held-out deal is learnt)."""
    result: np.ndarray = deal_id % every == 0
    return result


__all__ = ["TrainingRows", "training_rows", "rows_from_columns", "held_out", "SCALE"]

