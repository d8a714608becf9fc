"""Training labels in bulk: positions with the exact value of every legal card, written in
shards, deterministic whatever runs them, and resumable.

>>> import tempfile
>>> from solver.labels import LabelConfig, generate, load
>>> out = tempfile.mkdtemp()
>>> summary = generate(LabelConfig(deals=4, positions="root", format="npz"), out)
>>> load(out)["values"].shape
(4, 32)
>>> run_config(out).rules == LabelConfig().rules     # the rules to read its rows back under
True

Deal i of a stream is `Deal.random(derive(seed, i, 0))`; its trump, leader and playing team
come from a second per-deal stream and its play from a third, so every row depends only on the
configuration and the deal's number: never on the worker count, the order shards finish in,
or the backend (local processes or a Dask cluster).

The parts: `config` (LabelConfig and the schema), `rows` (the rows of a deal), `worker` (a
worker's kept Solvers and timed shard), `shards` (encoding, atomic writes, each shard's
SHA-256, the manifest, loading and verifying), `folder` (a folder being written: its lock, and
what a resume keeps), `run` (generate, over local processes or Dask) and `command` (the
report of `klaverjas labels --verify`).
"""
from ..errors import LabelsError
from .command import verify_report
from .config import (EXTRA_OBJECTIVES, EXTRA_SCHEMA, FORMATS, MAX_DEALS, MAX_DEALS_PER_SHARD,
                     MAX_SEED, MAX_SHARDS, NOT_LEGAL, POSITIONS, SCHEMA, LabelConfig, schema)
from .rows import deal_rows, deal_setup, row_game, shard_columns
from .run import Summary, generate
# `encode` and `decode` are encode_shard's and decode_shard's names from before: they still import.
from .shards import (MANIFEST, LabelColumns, decode, decode_shard, encode, encode_shard, load,
                     run_config, shard_name, verify, write_atomically)

__all__ = [
    "LabelConfig", "LabelColumns", "generate", "load", "run_config", "verify", "verify_report",
    "Summary", "LabelsError", "deal_rows", "deal_setup", "row_game", "shard_columns", "schema",
    "shard_name", "encode_shard", "decode_shard",
    "write_atomically", "MANIFEST", "NOT_LEGAL", "SCHEMA", "EXTRA_SCHEMA", "POSITIONS",
    "FORMATS", "EXTRA_OBJECTIVES", "MAX_DEALS", "MAX_DEALS_PER_SHARD", "MAX_SEED", "MAX_SHARDS",
]
