"""Train a bot from the labels: a card network learns, from what the player to move sees, the
single-dummy value of each legal card (`sd_values`), and plays with NumPy alone as
`learned:FILE`. The steps of `klaverjas labels` and `klaverjas train`, through the Python API.

    python examples/train_policy.py                # small: 200 deals, a minute or two
    python examples/train_policy.py --full         # full size: 4000 deals, 8 worlds a row
    python examples/train_policy.py --out my.npz   # then: klaverjas arena --team-a learned:my.npz
    python examples/train_policy.py --workers 2    # two cores (default: all of them)

Training needs PyTorch, the `[train]` extra: python -m pip install 'klaverjas-solver[train]'.

The steps:
1. labels (`solver.labels.generate`, what `klaverjas labels --positions all --worlds N`
   writes): a row at every card of every deal, with `sd_values`, each legal card's mean
   double-dummy value over N worlds the player to move cannot tell apart. That is the target
   a bot that cannot see should learn; `values` (every hand seen) is not. With one world a
   row, `sd_values` is a noisy but unbiased sample of that mean: enough for a small run.
2. rows (`solver.training.training_rows`): the observation of the player to move
   (`solver.encode`, suits renamed trump first); the column `deal`, which holds every hidden
   hand, is used only to rebuild the round, never as an input.
3. a network (`solver.training.train`, PyTorch's Adam) fitted to each legal card's value
   relative to the position's mean, every batch under one of the six renamings of the side
   suits, every tenth deal held out to pick the epoch; saved as .npz.
4. `LearnedBot.load(path)` plays it in a short duplicate arena against RandomBot and RuleBot.
"""
from __future__ import annotations

import argparse
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
    """With --workers N, NumPy's matrix products use N threads too. Their library sizes its
    thread pool when NumPy is imported, so this runs before the import; a
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

from solver.arena import play_arena  # noqa: E402
from solver.bots import LearnedBot  # noqa: E402
from solver.labels import LabelConfig, generate  # noqa: E402
from solver.training import TrainingOptions, train, training_rows  # noqa: E402


def make_labels(deals: int, worlds: int, seed: int, out: Path, workers=None):
    """The labels of `deals` deals, every position, with sd_values over `worlds` worlds. The
    play between rows is optimal half the time and random otherwise, so the rows also hold
    the positions a weaker opponent leads to."""
    config = LabelConfig(deals=deals, seed=seed, positions="all", play="mixed:0.5",
                         worlds=worlds, skip_forced=True, format="npz",
                         deals_per_shard=50 if deals < 1000 else 250)
    generate(config, out, workers=workers)


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
                        "playing the arenas, and encoding the rows (default: all cores)")
    args = parser.parse_args(argv)
    deals = args.deals or (4000 if args.full else 200)
    worlds = args.worlds or (8 if args.full else 1)
    hidden = args.hidden or (256 if args.full else 64)
    arena_deals = args.arena_deals or (400 if args.full else 20)
    epochs = args.epochs or (40 if args.full else 20)

    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        folder = args.labels or Path(scratch) / "labels"
        make_labels(deals, worlds, args.seed, folder, args.workers)
        labelled = time.perf_counter()
        rows = training_rows(folder, workers=args.workers or os.cpu_count() or 1)
        network = train(rows, TrainingOptions(hidden=hidden, layers=1, epochs=epochs,
                                              seed=args.seed))
        trained = time.perf_counter()
        print(f"{len(rows)} rows from {deals} deals ({worlds} world(s) a row) in "
              f"{labelled - started:.1f} s; trained {hidden} hidden units for {epochs} "
              f"epochs in {trained - labelled:.1f} s")
        print(f"held-out deals: the network's card loses "
              f"{network.info['held_out_points_lost']:.2f} points against the best sd card")

        path = args.out or Path(scratch) / "policy.npz"
        network.save(path)
        bot = LearnedBot.load(path)                      # as `learned:PATH` in the arena
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
