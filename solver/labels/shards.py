"""A labels folder on disk: shard files (encoded, written atomically, loaded back and
verified), the SHA-256 recorded for each, and the manifest that records the run.

>>> import tempfile
>>> from solver.labels import LabelConfig, generate
>>> out = tempfile.mkdtemp()
>>> _ = generate(LabelConfig(deals=2, positions="root", format="npz"), out, workers=1)
>>> load(out)["values"].shape
(2, 32)
>>> verify(out)
{}
>>> _ = (Path(out) / "shard-00000.npz").write_bytes(b"junk")
>>> verify(out)
{'shard-00000.npz': 'its SHA-256 differs from the one in manifest.json (truncated, damaged or replaced)'}
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import zipfile
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, Optional, Tuple, Union

import numpy as np

from .._version import __version__
from ..errors import LabelsError, shorten
from ..model.files import write_whole
from ..model.rules import Rules
from .config import LabelConfig, schema

MANIFEST = "manifest.json"
# Each shard's SHA-256 as the run writes it (sha256sum's format); merged into the manifest, and
# removed, when the run completes. Hidden, as are temporary files: readers of the folder skip them.
CHECKSUMS = ".shards.sha256"


def shard_name(config: LabelConfig, shard: int) -> str:
    return f"shard-{shard:05d}.{config.format}"


def encode_shard(config: LabelConfig, columns: Dict[str, np.ndarray]) -> bytes:
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


def decode_shard(config: LabelConfig, data: bytes) -> Dict[str, np.ndarray]:
    """The columns of one shard file's bytes (any error of a damaged file propagates)."""
    if config.format == "npz":
        with np.load(io.BytesIO(data)) as arrays:
            return {name: arrays[name] for name in arrays.files}
    _, pq = _pyarrow()
    table = pq.read_table(io.BytesIO(data))
    return {name: _column(table[name]) for name in table.column_names}


def _column(column: Any) -> np.ndarray:
    """A pyarrow column as a NumPy array: a fixed-size list column as rows of its size."""
    import pyarrow as pa
    column = column.combine_chunks()
    if pa.types.is_fixed_size_list(column.type):
        rows: np.ndarray = column.flatten().to_numpy().reshape(len(column), column.type.list_size)
        return rows
    values: np.ndarray = column.to_numpy()
    return values


def _pyarrow() -> Tuple[Any, Any]:
    """(pyarrow, pyarrow.parquet), which have no types; a LabelsError when not installed."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise LabelsError("Parquet output needs pyarrow: python -m pip install "
                          "'klaverjas-solver[labels]', or use --format npz") from None
    return pa, pq


# The names these had before: `solver.encode` is the observation encoder, a different thing.
encode = encode_shard
decode = decode_shard


def write_atomically(path: Path, data: Union[bytes, Iterable[bytes]]) -> None:
    """Write `data` (bytes, or pieces of them) whole or not at all (`write_whole`): a file is
    complete or absent, and two writers of a folder never share a name. A LabelsError raised
    from the OSError says why it could not be written."""
    try:
        write_whole(path, data)
    except OSError as err:
        raise LabelsError(f"cannot write {path}: {err.strerror or err}") from err


# -- the SHA-256 of each shard -----------------------------------------------------------------

class ShardDigests:
    """The SHA-256 recorded for each shard of a folder: those of the manifest, which a run
    writes at its end, then those of CHECKSUMS, where a run adds each shard just before it
    writes it (so that a resume after a crash can check every shard it keeps). A fixed 33
    bytes a shard, whatever the run has done."""

    def __init__(self, config: LabelConfig, folder: Path, manifest: Dict[str, Any]):
        self.config = config
        self.folder = folder
        self.digests = bytearray(32 * config.shards)
        self.known = bytearray(config.shards)
        recorded = manifest.get("shards")
        if isinstance(recorded, dict):
            for name, entry in recorded.items():
                if isinstance(entry, dict):
                    self._note(name, entry.get("sha256"))
        try:
            with open(folder / CHECKSUMS, encoding="ascii", errors="replace") as lines:
                for line in lines:          # "<sha256>  <name>", as sha256sum writes them
                    parts = line.split()
                    if len(parts) == 2:
                        self._note(parts[1], parts[0])
        except FileNotFoundError:
            pass
        except OSError as err:
            raise LabelsError(f"cannot read {folder / CHECKSUMS}: {err.strerror or err}") from None
        self._log: Optional[Any] = None

    def _note(self, name: Any, digest: Any) -> None:
        shard = _shard_number(self.config, name)
        if shard is None or not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            return                          # not ours: that shard counts as unrecorded
        self.digests[32 * shard:32 * shard + 32] = bytes.fromhex(digest)
        self.known[shard] = 1

    def hexdigest(self, shard: int) -> Optional[str]:
        return self.digests[32 * shard:32 * shard + 32].hex() if self.known[shard] else None

    def problem(self, shard: int) -> Optional[str]:
        """What is wrong with the shard file on disk, or None when it is the one recorded."""
        path = self.folder / shard_name(self.config, shard)
        wanted = self.hexdigest(shard)
        try:
            digest = _file_sha256(path)
        except FileNotFoundError:
            return "missing"
        except OSError as err:
            return f"cannot be read: {err.strerror or err}"
        if wanted is None:
            return "no SHA-256 recorded for it (its run did not finish)"
        if digest != wanted:
            return f"its SHA-256 differs from the one in {MANIFEST} (truncated, damaged or replaced)"
        return None

    def record(self, shard: int, data: bytes) -> None:
        """Note in CHECKSUMS the SHA-256 of `data`, the bytes about to be written as `shard`."""
        digest = hashlib.sha256(data).hexdigest()
        try:
            if self._log is None:
                self._log = open(self.folder / CHECKSUMS, "a", encoding="ascii")
            self._log.write(f"{digest}  {shard_name(self.config, shard)}\n")
            self._log.flush()
            os.fsync(self._log.fileno())
        except OSError as err:
            raise LabelsError(f"cannot write {self.folder / CHECKSUMS}: {err.strerror or err}") \
                from err
        self._note(shard_name(self.config, shard), digest)

    def forget(self, shard: int) -> None:
        self.known[shard] = 0

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


_SHA256 = re.compile(r"[0-9a-f]{64}")


def _shard_number(config: LabelConfig, name: Any) -> Optional[int]:
    match = re.fullmatch(r"shard-([0-9]{5,})\.([a-z]+)", name) if isinstance(name, str) else None
    if match is None:
        return None
    shard = int(match.group(1))
    return shard if shard < config.shards and shard_name(config, shard) == name else None


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# -- the manifest ------------------------------------------------------------------------------

def new_manifest(config: LabelConfig, command: Optional[str]) -> Dict[str, Any]:
    return {"config": config.to_dict(), "objective": "points",
            "extra_objectives": list(config.objectives),
            "values_view": "the team to move", "command": command,
            "version": __version__,
            "schema": {name: {"dtype": d, "shape": [w] if w else [], "meaning": m}
                       for name, (d, w, m) in schema(config).items()},
            "shards": {}}


def write_manifest(folder: Path, manifest: Dict[str, Any],
                   shards: Optional[Iterable[Tuple[str, Dict[str, Any]]]] = None) -> None:
    """Write `manifest` as indented JSON. `shards`, (name, entry) pairs, go in place of its
    "shards", written one by one: a run of many shards never holds its whole manifest."""
    write_atomically(folder / MANIFEST, _manifest_pieces(manifest, shards))


def _manifest_pieces(manifest: Dict[str, Any],
                     shards: Optional[Iterable[Tuple[str, Dict[str, Any]]]]) -> Iterator[bytes]:
    if shards is None:
        yield (json.dumps(manifest, indent=2) + "\n").encode()
        return
    # The text json.dumps(indent=2) gives, with the shards' entries streamed in.
    text = json.dumps(dict(manifest, shards={}), indent=2) + "\n"
    key = '\n  "shards": {}'
    before, after = text.split(key)
    yield (before + key[:-1]).encode()
    separator = "\n"
    for name, entry in shards:
        yield (separator + f"    {json.dumps(name)}: " +
               json.dumps(entry, indent=2).replace("\n", "\n    ")).encode()
        separator = ",\n"
    yield ("\n  }" if separator != "\n" else "}").encode() + after.encode()


def read_manifest(folder: Path) -> Tuple[Dict[str, Any], LabelConfig]:
    """The manifest of `folder` and the config it records; LabelsError naming the file for one
    that is missing, unreadable or not a labels manifest."""
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise LabelsError(f"{folder} has no {MANIFEST}: not a labels folder (or not one yet)") \
            from None
    except OSError as err:
        raise LabelsError(f"cannot read {path}: {err.strerror or err}") from None
    except ValueError as err:       # not JSON, or not text
        raise LabelsError(f"{path} is not a labels manifest: {shorten(str(err))}") from None
    if not isinstance(manifest, dict) or "config" not in manifest:
        raise LabelsError(f"{path} is not a labels manifest: it has no config")
    try:
        return manifest, LabelConfig.from_dict(manifest["config"])
    except LabelsError as err:
        raise LabelsError(f"{path} is not a labels manifest: {shorten(str(err))}") from err



def run_config(folder: Union[str, "os.PathLike[str]"]) -> LabelConfig:
    """The options of the run that wrote the labels folder `folder`, from its manifest. Its
    rules are those to read the rows back under: `row_game(row, run_config(folder).rules)`,
    `solver.encode.from_row(row, run_config(folder).rules)` (`load(folder)` carries them for
    `solver.encode.from_columns`); LabelsError naming the file for a folder without a
    readable manifest."""
    return read_manifest(Path(folder))[1]

# -- loading -----------------------------------------------------------------------------------

class LabelColumns(Dict[str, np.ndarray]):
    """The columns of a labels folder ({column: array}), with the options of the run that
    wrote them (`config`, and its `rules`): the rules the rows are read back under, which the
    rows themselves do not repeat (`solver.encode.from_columns` reads them from here)."""

    def __init__(self, columns: Dict[str, np.ndarray], config: LabelConfig) -> None:
        super().__init__(columns)
        self.config = config

    @property
    def rules(self) -> Rules:
        return self.config.rules


def load(folder: Union[str, "os.PathLike[str]"], verify: bool = True) -> LabelColumns:
    """Every shard of a labels folder, concatenated: {column: array}, rows in deal order, with
    the run's options (`LabelColumns.config`, `.rules`).

    A folder without a manifest, a missing shard, and a shard that cannot be read each raise
    LabelsError naming the file; so does, unless `verify=False` (faster, for a folder you
    trust), a shard whose SHA-256 is not the one its run recorded."""
    folder = Path(folder)
    manifest, config = read_manifest(folder)
    digests = ShardDigests(config, folder, manifest) if verify else None
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
        if digests is not None:
            wanted = digests.hexdigest(shard)
            if wanted is None:
                raise LabelsError(f"{path} has no SHA-256 recorded in {MANIFEST}: its run did "
                                  f"not finish; run the same command again")
            if hashlib.sha256(data).hexdigest() != wanted:
                raise LabelsError(f"{path} is not the shard the run wrote: its SHA-256 differs "
                                  f"from the one in {MANIFEST} (truncated, damaged or replaced)")
        try:
            part = decode_shard(config, data)
        except LabelsError:
            raise
        except Exception as err:    # zipfile, NumPy and Arrow each fail in their own ways
            raise LabelsError(f"{path} is not a readable {config.format} shard (truncated or "
                              f"damaged): {shorten(str(err))}") from err
        if list(part) != columns:
            raise LabelsError(f"{path} holds the columns {', '.join(part) or 'none'}, not "
                              f"{', '.join(columns)}")
        parts.append(part)
    return LabelColumns({name: np.concatenate([part[name] for part in parts])
                         for name in columns}, config)


def verify(folder: Union[str, "os.PathLike[str]"]) -> Dict[str, str]:
    """The shards of a labels folder that are not the ones its run wrote, each with what is
    wrong (missing, unrecorded, or a SHA-256 that differs from the manifest's); empty when
    every shard checks out. A folder without a readable manifest raises LabelsError."""
    folder = Path(folder)
    manifest, config = read_manifest(folder)
    digests = ShardDigests(config, folder, manifest)
    bad = {}
    for shard in range(config.shards):
        problem = digests.problem(shard)
        if problem is not None:
            bad[shard_name(config, shard)] = problem
    return bad
