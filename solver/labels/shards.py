"""A labels folder on disk: shard files (encoded, written atomically, loaded back) and the
manifest that records the run and each shard's SHA-256.

>>> import tempfile
>>> from solver.labels import LabelConfig, generate
>>> out = tempfile.mkdtemp()
>>> _ = generate(LabelConfig(deals=2, positions="root", format="npz"), out, workers=1)
>>> load(out)["values"].shape
(2, 32)
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any, Dict, Optional

import numpy as np

from .._version import __version__
from ..errors import LabelsError, shorten
from .config import LabelConfig, schema

MANIFEST = "manifest.json"


def shard_name(config: LabelConfig, shard: int) -> str:
    return f"shard-{shard:05d}.{config.format}"


def encode(config: LabelConfig, columns: Dict[str, np.ndarray]) -> bytes:
    """One shard file's bytes: the same columns give the same bytes."""
    if config.format == "npz":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, array in columns.items():
                # A fixed date: np.savez stamps the current time, which breaks identity.
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                with archive.open(info, "w") as member:
                    np.lib.format.write_array(member, np.ascontiguousarray(array))
        return buffer.getvalue()
    pa, pq = _pyarrow()
    arrays = {}
    for name, array in columns.items():
        if array.ndim == 2:
            arrays[name] = pa.FixedSizeListArray.from_arrays(pa.array(array.reshape(-1)), array.shape[1])
        else:
            arrays[name] = pa.array(array)
    buffer = io.BytesIO()
    pq.write_table(pa.table(arrays), buffer, compression="zstd")
    return buffer.getvalue()


def decode(config: LabelConfig, data: bytes) -> Dict[str, np.ndarray]:
    """The columns of one shard file's bytes (any error of a damaged file propagates)."""
    if config.format == "npz":
        with np.load(io.BytesIO(data)) as arrays:
            return {name: arrays[name] for name in arrays.files}
    _, pq = _pyarrow()
    table = pq.read_table(io.BytesIO(data))
    return {name: _column(table[name]) for name in table.column_names}


def _column(column) -> np.ndarray:
    import pyarrow as pa  # type: ignore[import-untyped]
    column = column.combine_chunks()
    if pa.types.is_fixed_size_list(column.type):
        return column.flatten().to_numpy().reshape(len(column), column.type.list_size)
    return column.to_numpy()


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise LabelsError("Parquet output needs pyarrow: python -m pip install "
                          "'klaverjas-solver[labels]', or use --format npz") from None
    return pa, pq


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary name, then rename: a shard file is complete or absent."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except OSError as err:
        try:
            temporary.unlink()
        except OSError:
            pass
        raise LabelsError(f"cannot write {path}: {err.strerror or err}") from None


# -- the manifest ------------------------------------------------------------------------------

def open_manifest(config: LabelConfig, out: Path, command: Optional[str]) -> Dict[str, Any]:
    """The manifest of folder `out`: the one there when it holds a run of `config` (a run with
    other options is refused, naming the option), or a new one, written now."""
    path = out / MANIFEST
    wanted = config.to_dict()
    if path.exists():
        try:
            manifest = json.loads(path.read_text())
            earlier = manifest["config"]
        except (OSError, ValueError, KeyError, TypeError):
            raise LabelsError(f"{path} is not a labels manifest: use an empty folder") from None
        for name in wanted:
            if earlier.get(name) != wanted[name]:
                raise LabelsError(
                    f"{out} holds a run with {name}={json.dumps(earlier.get(name))}, not "
                    f"{json.dumps(wanted[name])}: use another folder, or the same options to resume")
        return manifest
    manifest = {"config": wanted, "objective": "points",
                "extra_objectives": list(config.objectives),
                "values_view": "the team to move", "command": command,
                "version": __version__,
                "schema": {name: {"dtype": d, "shape": [w] if w else [], "meaning": m}
                           for name, (d, w, m) in schema(config).items()},
                "shards": {}}
    write_atomically(path, _json_bytes(manifest))
    return manifest


def finish_manifest(manifest: Dict[str, Any], config: LabelConfig, out: Path) -> None:
    """Record every shard's deals and SHA-256 in the manifest, and mark the run complete."""
    shards = {}
    for shard in range(config.shards):
        name = shard_name(config, shard)
        data = (out / name).read_bytes()
        shards[name] = {"deals": [config.shard_deals(shard).start, config.shard_deals(shard).stop],
                        "sha256": hashlib.sha256(data).hexdigest()}
    manifest["shards"] = shards
    manifest["complete"] = True
    write_atomically(out / MANIFEST, _json_bytes(manifest))


def _json_bytes(data: Dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2) + "\n").encode()


# -- loading -----------------------------------------------------------------------------------

def load(folder) -> Dict[str, np.ndarray]:
    """Every shard of a labels folder, concatenated: {column: array}, rows in deal order.

    A folder without a manifest, a missing shard, and a shard that cannot be read or differs
    from the SHA-256 the manifest records each raise LabelsError naming the file."""
    folder = Path(folder)
    manifest, config = _read_manifest(folder)
    recorded = manifest.get("shards")
    recorded = recorded if isinstance(recorded, dict) else {}
    columns = list(schema(config))
    parts = []
    for shard in range(config.shards):
        path = folder / shard_name(config, shard)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise LabelsError(f"{path} is missing: the run did not finish; run the same "
                              f"command again to write it") from None
        except OSError as err:
            raise LabelsError(f"cannot read {path}: {err.strerror or err}") from None
        wanted = recorded.get(path.name)
        if isinstance(wanted, dict) and "sha256" in wanted \
                and hashlib.sha256(data).hexdigest() != wanted["sha256"]:
            raise LabelsError(f"{path} is not the shard the run wrote: its SHA-256 differs from "
                              f"the one in {MANIFEST} (truncated, damaged or replaced)")
        try:
            part = decode(config, data)
        except LabelsError:
            raise
        except Exception as err:    # zipfile, NumPy and Arrow each fail in their own ways
            raise LabelsError(f"{path} is not a readable {config.format} shard (truncated or "
                              f"damaged): {shorten(str(err))}") from err
        if list(part) != columns:
            raise LabelsError(f"{path} holds the columns {', '.join(part) or 'none'}, not "
                              f"{', '.join(columns)}")
        parts.append(part)
    return {name: np.concatenate([part[name] for part in parts]) for name in columns}


def _read_manifest(folder: Path):
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text())
        return manifest, LabelConfig.from_dict(manifest["config"])
    except FileNotFoundError:
        raise LabelsError(f"{folder} has no {MANIFEST}: not a labels folder (or not one yet)") \
            from None
    except OSError as err:
        raise LabelsError(f"cannot read {path}: {err.strerror or err}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        # LabelsError and RulesError are ValueErrors: a manifest with a bad option lands here.
        raise LabelsError(f"{path} is not a labels manifest: {shorten(str(err))}") from err
