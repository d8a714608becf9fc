"""Training labels: 20 deals, a row at every lead with the exact value of every legal card.

Run: python examples/labels.py   (the same as `klaverjas labels --deals 20 --out ...`)
"""
import tempfile

from solver import Card
from solver.labels import LabelConfig, generate, load, verify

if __name__ == "__main__":     # the worker processes import this script: they must not run it
    with tempfile.TemporaryDirectory() as out:
        config = LabelConfig(deals=20, seed=7, positions="trick-starts", play="optimal",
                             format="npz", deals_per_shard=10)
        print(generate(config, out, workers=2))
        rows = load(out)                    # checks each shard's SHA-256 against the manifest
        print("shards not as written:", verify(out))
        print({name: column.shape for name, column in rows.items()})
        first = rows["values"][0]
        print("deal 0, first lead:", {str(Card.from_index(i)): int(v)
                                      for i, v in enumerate(first) if v != -32768})
