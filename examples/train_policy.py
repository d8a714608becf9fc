"""Train a bot from the labels: a small NumPy network learns, from what the player to move
sees, the single-dummy value of each legal card (`sd_values`), and plays as `PolicyBot`.

    python examples/train_policy.py                # small: 200 deals, a minute or less
    python examples/train_policy.py --full         # full size: 4000 deals, 8 worlds a row
    python examples/train_policy.py --out my.npz   # then: klaverjas arena --team-a policy:my.npz
    python examples/train_policy.py --workers 2    # two cores (default: all of them)

The steps:
1. labels (`solver.labels.generate`, what `klaverjas labels --positions all --worlds N`
   writes): a row at every card of every deal, with `sd_values`, each legal card's mean
   double-dummy value over N worlds the player to move cannot tell apart. That is the target
   a bot that cannot see should learn; `values` (every hand seen) is not. With one world a
   row, `sd_values` is a noisy but unbiased sample of that mean: enough for a small run.
2. features: `solver.encode.from_columns`, the observation of the player to move (its hand,
   the play so far, trump, ...); the column `deal`, which holds every hidden hand, is used
   only to rebuild the round, never as an input.
3. a two-layer network (`solver.bots.PolicyModel`, suits renamed trump first) fitted with
   Adam to each legal card's value relative to the position's mean, every batch under one
   of the six renamings of the side suits, saved as .npz.
4. `PolicyBot.load(path)` plays it in a short duplicate arena against RandomBot and RuleBot.
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys
import tempfile
import time
from pathlib import Path


def worker_count(text: str) -> int:
    """--workers: a whole number of at least 1."""
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
    return int(text)


def limit_numpy_threads(argv) -> None:
    """With --workers N, NumPy's matrix products (the training) use N threads too. Their
    library sizes its thread pool when NumPy is imported, so this runs before the import; a
    thread count already set in the environment is kept, and a bad --workers is left to the
    parser in main() to refuse."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--workers" and i + 1 < len(argv) else \
            arg.partition("=")[2] if arg.startswith("--workers=") else None
        if value is not None and value.isascii() and value.isdigit() and int(value) >= 1:
            for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
                os.environ.setdefault(name, value)


if __name__ == "__main__":
    limit_numpy_threads(sys.argv[1:])

import numpy as np  # noqa: E402

from solver import encode  # noqa: E402
from solver.arena import play_arena  # noqa: E402
from solver.bots import PolicyBot, PolicyModel  # noqa: E402
from solver.bots.policy import canonical, canonical_cards, legal_mask, suit_renaming, trumps_of  # noqa: E402
from solver.labels import LabelConfig, generate, load  # noqa: E402

# Values are points (our team minus theirs, up to a few hundred): scaled near 1 to train.
SCALE = 100.0


def make_labels(deals: int, worlds: int, seed: int, out: Path, workers=None):
    """The labels of `deals` deals, every position, with sd_values over `worlds` worlds. The
    play between rows is optimal half the time and random otherwise, so the rows also hold
    the positions a weaker opponent leads to."""
    config = LabelConfig(deals=deals, seed=seed, positions="all", play="mixed:0.5",
                         worlds=worlds, skip_forced=True, format="npz",
                         deals_per_shard=50 if deals < 1000 else 250)
    generate(config, out, workers=workers)
    return load(out)


def training_arrays(columns):
    """(canonical features, canonical centred targets, canonical legal mask, deal ids)."""
    x = encode.from_columns(columns)
    values = np.asarray(columns["sd_values"], dtype=np.float64)
    mask = legal_mask(values, None)
    filled = np.where(mask, values, 0.0)
    mean = filled.sum(axis=1, keepdims=True) / mask.sum(axis=1, keepdims=True)
    target = np.where(mask, (filled - mean) / SCALE, 0.0)
    trumps = trumps_of(x)
    return (canonical(x), canonical_cards(target, trumps).astype(np.float32),
            canonical_cards(mask, trumps), np.asarray(columns["deal_id"]))


# The three side suits may be renamed among themselves without changing the game: each batch
# is shown under one of the 6 renamings (trump stays first), six rows' worth from each row.
SIDE_SUIT_RENAMINGS = [suit_renaming([0, *order]) for order in itertools.permutations((1, 2, 3))]


def train(xc, target, mask, hidden: int, epochs: int, seed: int, rate: float = 1e-3,
          batch: int = 256) -> PolicyModel:
    """Adam on the mean squared error over the legal cards."""
    model = PolicyModel.initial(hidden, seed)
    params = [model.w1, model.b1, model.w2, model.b2]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    rng = np.random.default_rng(seed)
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(xc))
        for start in range(0, len(order), batch):
            rows = order[start:start + batch]
            features, cards = SIDE_SUIT_RENAMINGS[rng.integers(len(SIDE_SUIT_RENAMINGS))]
            x, t, m = xc[rows][:, features], target[rows][:, cards], mask[rows][:, cards]
            h = model.hidden(x)
            error = np.where(m, h @ model.w2 + model.b2 - t, 0.0) * 2 / max(1, m.sum())
            dh = (error @ model.w2.T) * (h > 0)
            grads = [x.T @ dh, dh.sum(0), h.T @ error, error.sum(0)]
            step += 1
            for p, g, (m1, m2) in zip(params, grads, moments):
                m1 *= 0.9
                m1 += 0.1 * g
                m2 *= 0.999
                m2 += 0.001 * g * g
                p -= rate * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    return model


def best_card_agreement(model: PolicyModel, xc, target, mask) -> float:
    """How often the model's top legal card is a card with the best target."""
    h = model.hidden(xc)
    scores = np.where(mask, h @ model.w2 + model.b2, -np.inf)
    best = np.where(mask, target, -np.inf)
    picked = np.argmax(scores, axis=1)
    return float(np.mean(best[np.arange(len(best)), picked] >= best.max(axis=1) - 1e-9))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true",
                        help="the full-size run: 4000 deals, 8 worlds a row, 256 hidden units")
    parser.add_argument("--deals", type=int, help="deals of labels (default 200; --full 4000)")
    parser.add_argument("--worlds", type=int, help="worlds a row (default 1; --full 8)")
    parser.add_argument("--hidden", type=int, help="hidden units (default 64; --full 256)")
    parser.add_argument("--epochs", type=int, help="passes over the rows (default 20; --full 40)")
    parser.add_argument("--arena-deals", type=int, help="duplicate deals against each "
                        "opponent (default 20; --full 400)")
    parser.add_argument("--seed", type=int, default=1, help="labels and training seed (default 1)")
    parser.add_argument("--labels", type=Path, help="a labels folder to write or resume "
                        "(default: a temporary one)")
    parser.add_argument("--out", type=Path, help="where to save the model (default: a "
                        "temporary file)")
    parser.add_argument("--workers", type=worker_count, help="processes writing the labels and "
                        "playing the arenas, and NumPy's threads in the training (default: all "
                        "cores)")
    args = parser.parse_args(argv)
    deals = args.deals or (4000 if args.full else 200)
    worlds = args.worlds or (8 if args.full else 1)
    hidden = args.hidden or (256 if args.full else 64)
    arena_deals = args.arena_deals or (400 if args.full else 20)
    epochs = args.epochs or (40 if args.full else 20)

    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        columns = make_labels(deals, worlds, args.seed, args.labels or Path(scratch) / "labels",
                              args.workers)
        labelled = time.perf_counter()
        xc, target, mask, deal_ids = training_arrays(columns)
        held_out = deal_ids % 10 == 0          # every tenth deal checks the fit
        model = train(xc[~held_out], target[~held_out], mask[~held_out], hidden, epochs,
                      args.seed)
        trained = time.perf_counter()
        print(f"{len(xc)} rows from {deals} deals ({worlds} world(s) a row) in "
              f"{labelled - started:.1f} s; trained {hidden} hidden units for {epochs} "
              f"epochs in {trained - labelled:.1f} s")
        print(f"held-out rows where the policy's card has the best sd value: "
              f"{best_card_agreement(model, xc[held_out], target[held_out], mask[held_out]):.1%}")

        path = args.out or Path(scratch) / "policy.npz"
        model.save(path)
        bot = PolicyBot.load(path)                       # as `policy:PATH` in the arena
        for opponent in ("random", "rule"):
            result = play_arena(bot, opponent, deals=arena_deals, seed=args.seed + 1000,
                                workers=args.workers)
            low, high = result.ci95
            print(f"{bot.name} against {opponent}: {result.mean_score_diff:+.1f} per deal "
                  f"(95% interval {low:+.1f} to {high:+.1f}), DD loss per card "
                  f"{result.bots['a'].dd_loss_per_card:.2f} against "
                  f"{result.bots['b'].dd_loss_per_card:.2f}")


if __name__ == "__main__":
    main()
