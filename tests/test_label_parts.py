"""A labels run with fewer shards than workers shares each shard out in parts: the same
files as one worker writes, and every core busy."""
from pathlib import Path

import numpy as np

from solver.labels import LabelConfig, decode_shard, generate
from solver.labels.run import _parts_per_shard


def test_one_shard_shared_by_two_workers_is_the_shard_one_worker_writes(tmp_path):
    config = LabelConfig(deals=9, positions="trick-starts", format="npz", objectives=("make",))
    one = generate(config, tmp_path / "one", workers=1)
    two = generate(config, tmp_path / "two", workers=2)
    assert one.rows == two.rows > 9
    files = sorted(p.name for p in (tmp_path / "one").iterdir() if p.suffix == ".npz")
    assert files == sorted(p.name for p in (tmp_path / "two").iterdir() if p.suffix == ".npz")
    for name in files:
        a = decode_shard(config, (Path(tmp_path / "one") / name).read_bytes())
        b = decode_shard(config, (Path(tmp_path / "two") / name).read_bytes())
        assert a.keys() == b.keys()
        for column in a:
            assert np.array_equal(a[column], b[column], equal_nan=True), column


def test_parts_per_shard_keep_every_worker_busy_and_parts_not_tiny():
    assert _parts_per_shard(LabelConfig(deals=300), 1, 2) == 4
    assert _parts_per_shard(LabelConfig(deals=5000), 5, 2) == 1
    assert _parts_per_shard(LabelConfig(deals=300, deals_per_shard=300), 1, 64) == 64
    assert _parts_per_shard(LabelConfig(deals=8, deals_per_shard=8), 1, 16) == 2


def test_the_shard_encoder_is_named_apart_from_the_observation_encoder(tmp_path):
    from solver import encode as observations, labels
    from solver.labels import encode_shard
    assert encode_shard is not observations and "encode" not in labels.__all__
    assert labels.encode is encode_shard and labels.decode is decode_shard    # the old names
    config = LabelConfig(deals=2, positions="root", format="npz")
    columns = {"deal_id": np.arange(3, dtype=np.int32), "values": np.ones((3, 32), np.int16)}
    back = decode_shard(config, encode_shard(config, columns))
    assert back.keys() == columns.keys()
    assert all(np.array_equal(back[name], columns[name]) for name in columns)
