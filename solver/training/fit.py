"""Fitting a card network with PyTorch (the `[train]` extra), then handing it to NumPy.

The network (`solver.network.CardNetwork`: layers of ReLU units, 32 outputs) is fitted with
Adam (torch.optim) on two terms over the legal cards of each row:
- the squared error between its outputs and the centred single-dummy values, its outputs
  centred too (only their differences decide a card), and
- the cross-entropy of its outputs, as a choice among the legal cards, toward the best
  ones (every card within a point of the best value, shared alike).
Each batch is shown under one of the six renamings of the side suits (trump stays first),
and every tenth deal is held out: the epoch whose network loses the fewest points there is
the one kept.

The same rows, options and seed give the same weights: PyTorch runs deterministic algorithms
on one thread (so the network never depends on the worker count; on a shared machine one
thread is also the fastest), and the shuffles and renamings come from one seeded NumPy
stream.
"""
from __future__ import annotations

import contextlib
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy as np

from ..errors import TrainingError, whole_number
from ..network import SIDE_SUIT_RENAMINGS, CardNetwork
from .rows import SCALE, TrainingRows, held_out

# Cards within this many hundreds of points of the best count as best (values are means
# over a few worlds: a tie is a tie).
BEST_MARGIN = 0.01


@dataclass(frozen=True)
class TrainingOptions:
    """What `train` fits: `layers` hidden layers of `hidden` units, `epochs` passes over the
    rows in batches of `batch` at learning rate `rate` (cosine-annealed to zero), the
    cross-entropy term weighted by `choice_weight`."""

    hidden: int = 512
    layers: int = 2
    epochs: int = 20
    seed: int = 0
    batch: int = 512
    rate: float = 1e-3
    choice_weight: float = 1.0

    def __post_init__(self) -> None:
        for name, least, most in (("hidden", 1, 4096), ("layers", 1, 8), ("epochs", 1, 10_000),
                                  ("seed", 0, 2 ** 63 - 1), ("batch", 1, 1 << 20)):
            whole_number(name, getattr(self, name), least, most, error=TrainingError)
        for name in ("rate", "choice_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                    not 0 <= value < float("inf") or (name == "rate" and value == 0):
                raise TrainingError(f"{name} must be a number above 0, got {value!r}")


def import_torch() -> Any:
    """PyTorch, or TrainingError saying how to install it."""
    try:
        import torch
    except ImportError as err:
        raise TrainingError(f"training a network needs PyTorch, which is not installed: "
                            f"python -m pip install 'klaverjas-solver[train]' ({err})") from None
    return torch


def train(rows: TrainingRows, options: TrainingOptions = TrainingOptions(),
          report: Optional[Callable[[str], None]] = None) -> CardNetwork:
    """A CardNetwork fitted to `rows` (`training_rows`), the epoch that does best on the
    held-out deals; its `info` records the options, the rows and the held-out figures.
    `report` is given a line per epoch."""
    torch = import_torch()
    out = held_out(rows.deal_id)
    learn, judge = rows.subset(~out), rows.subset(out)
    if len(learn) == 0 or len(judge) == 0:
        raise TrainingError(f"{len(rows)} rows from {len(np.unique(rows.deal_id))} deals are "
                            f"too few: every tenth deal is held out to judge the fit, and the "
                            f"others are learnt from (label at least 20 deals)")
    started = time.perf_counter()
    with _deterministic(torch):
        torch.manual_seed(options.seed)
        rng = np.random.default_rng(options.seed)
        model = module(torch, options.hidden, options.layers)
        optimiser = torch.optim.Adam(model.parameters(), lr=options.rate)
        steps = options.epochs * -(-len(learn) // options.batch)
        schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=steps)
        best: Tuple[float, int, Dict[str, Any]] = (float("inf"), 0, {})
        history = []
        for epoch in range(1, options.epochs + 1):
            model.train()
            for features, target, legal in _batches(learn, options.batch, rng):
                loss = _loss(torch, model(torch.from_numpy(features)),
                             torch.from_numpy(target), torch.from_numpy(legal),
                             options.choice_weight)
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
                schedule.step()
            lost, agree = judge_fit(torch, model, judge)
            history.append({"epoch": epoch, "points_lost": round(lost, 3),
                            "best_card": round(agree, 4)})
            if lost < best[0]:
                best = (lost, epoch, {k: v.clone() for k, v in model.state_dict().items()})
            if report is not None:
                report(f"epoch {epoch}/{options.epochs}: held-out rows lose {lost:.2f} points "
                       f"a card against the best sd card, {agree:.1%} play a best one "
                       f"({time.perf_counter() - started:.0f} s)")
        model.load_state_dict(best[2])
    info = {"options": asdict(options), "torch": str(torch.__version__), "rows": len(rows),
            "rows_learnt": len(learn), "rows_held_out": len(judge), "held_out": "every tenth deal",
            "epoch_kept": best[1], "held_out_points_lost": round(best[0], 3),
            "history": history, "labels": rows.labels,
            "seconds": round(time.perf_counter() - started, 1)}
    return network_of(model, info)


def module(torch: Any, hidden: int, layers: int) -> Any:
    """The PyTorch network: `layers` hidden layers of `hidden` ReLU units, 32 outputs."""
    from ..encode import SIZE
    widths = [SIZE] + [hidden] * layers + [32]
    parts: List[Any] = []
    for a, b in zip(widths, widths[1:]):
        parts += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    return torch.nn.Sequential(*parts[:-1])


def network_of(model: Any, info: Dict[str, Any]) -> CardNetwork:
    """The NumPy CardNetwork with the weights of the PyTorch `model` (`module`)."""
    linear = [m for m in model if hasattr(m, "weight")]
    return CardNetwork([(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
                        for m in linear], info)


def judge_fit(torch: Any, model: Any, rows: TrainingRows) -> Tuple[float, float]:
    """(points lost a row, share of rows played well): the sd value the network's legal card
    gives up against the best one, in points, and how often its card is a best one."""
    model.eval()
    with torch.no_grad():
        scores = np.concatenate([model(torch.from_numpy(rows.features[i:i + 8192]
                                                        .astype(np.float32))).numpy()
                                 for i in range(0, len(rows), 8192)])
    picked = np.argmax(np.where(rows.legal, scores, -np.inf), axis=1)
    best = np.where(rows.legal, rows.target, -np.inf).max(axis=1)
    lost = best - rows.target[np.arange(len(rows)), picked]
    return float(lost.mean() * SCALE), float(np.mean(lost <= BEST_MARGIN / 2))


def _batches(rows: TrainingRows, size: int, rng: np.random.Generator
             ) -> Iterator[Tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The rows shuffled, in batches, each under a side-suit renaming drawn from `rng`."""
    order = rng.permutation(len(rows))
    for start in range(0, len(order), size):
        take = np.sort(order[start:start + size])
        features, cards = SIDE_SUIT_RENAMINGS[int(rng.integers(len(SIDE_SUIT_RENAMINGS)))]
        yield (rows.features[take][:, features].astype(np.float32),
               rows.target[take][:, cards], rows.legal[take][:, cards])


def _loss(torch: Any, out: Any, target: Any, legal: Any, choice_weight: float) -> Any:
    """The squared error of the centred outputs plus `choice_weight` times the cross-entropy
    toward the best cards, both over the legal cards of each row."""
    count = legal.sum(dim=1, keepdim=True).clamp(min=1)
    masked = torch.where(legal, out, torch.zeros_like(out))
    centred = out - masked.sum(dim=1, keepdim=True) / count
    squared = torch.where(legal, (centred - target) ** 2, torch.zeros_like(out)).sum() / count.sum()
    if not choice_weight:
        return squared
    best = target.masked_fill(~legal, -float("inf")).max(dim=1, keepdim=True).values
    aim = (legal & (target >= best - BEST_MARGIN)).float()
    aim = aim / aim.sum(dim=1, keepdim=True)
    logits = out.masked_fill(~legal, -1e9)
    choice = -(aim * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    return squared + choice_weight * choice


@contextlib.contextmanager
def _deterministic(torch: Any) -> Iterator[None]:
    """PyTorch on one thread, deterministic algorithms only; as it was afterwards."""
    before = (torch.get_num_threads(), torch.are_deterministic_algorithms_enabled())
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    try:
        yield
    finally:
        torch.set_num_threads(before[0])
        torch.use_deterministic_algorithms(before[1])


__all__ = ["TrainingOptions", "train", "module", "network_of", "judge_fit", "import_torch"]
