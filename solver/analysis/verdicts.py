"""Single-dummy verdicts: was a played card a mistake, given what its player could know?

Every legal card is valued in the same sampled worlds, so the played card is compared with
each other card world by world (a paired comparison). The luck of the deal moves all cards'
values together and cancels out of the differences, which are far less noisy than the
cards' means: that is what makes a verdict stable from one seed to the next.

The loss is the mean paired difference to the single-dummy best card (the highest mean), and
[low, high] is a 95% confidence interval for the true loss (the played card against whichever
card is truly best), from Student t intervals of the paired differences:

- the low end is simultaneous over the other legal cards (Bonferroni): the best card is
  picked from the same worlds, so its lead over the played card is biased upward when cards
  are close, and calling a card a mistake must allow for every card that could have led;
- the high end needs no correction: the loss is below it only if every other card is shown
  to be less than that much better, each at 97.5%.

So the loss lies below `low` with probability at most 2.5%, and above `high` at most 2.5%.

>>> from solver import Card
>>> values = {Card.parse("SA"): [30, 10, 20, 40], Card.parse("S7"): [10, -10, 0, 20]}
>>> loss = paired_loss(values, "S7")           # 20 points worse in every world
>>> loss.loss, loss.low, loss.high, loss.best_cards
(20.0, 20.0, 20.0, [Card.parse('SA')])
>>> sd_verdict(dd_loss=0, loss=loss.loss, low=loss.low, high=loss.high)
'mistake'
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import List, Mapping, Sequence

from ..model.cards import Card, CardLike

CONFIDENCE = 0.95
# The smallest single-dummy loss, in points, that is called a mistake: a card that costs
# less is within what a player can reasonably misjudge, and the line the 95% interval of a
# card's loss must lie above (a mistake) or below (no mistake) to decide its verdict.
MISTAKE_POINTS = 5.0
# The same line for ledig, whose values are tricks: half a trick expected.
MISTAKE_TRICKS = 0.5
# The line by the unit the values are in: "points" (a trump game) or "tricks" (ledig).
MISTAKE_LINE = {"points": MISTAKE_POINTS, "tricks": MISTAKE_TRICKS}
# --worlds auto: worlds are sampled WORLDS_BATCH at a time until the card's verdict is
# decided, on at least WORLDS_LEAST (a card that differs from the best in few worlds can look
# the same as it in 32) and at most WORLDS_MOST.
WORLDS_BATCH = 32
WORLDS_LEAST = 64
WORLDS_MOST = 512

VERDICTS = ("optimal", "unlucky", "minor", "mistake", "uncertain")
MEANINGS = {
    "optimal": "optimal: no double-dummy loss, and no mistake given what the player could know",
    "unlucky": ("unlucky: a double-dummy loss, but as good as the best card given what the "
                "player could know"),
    "minor": (f"minor: a small loss given what the player could know: at {CONFIDENCE:.0%} "
              f"confidence worse than the single-dummy best card, but by less than "
              f"{MISTAKE_POINTS:g} points"),
    "mistake": (f"mistake: at {CONFIDENCE:.0%} confidence, at least {MISTAKE_POINTS:g} points "
                f"worse than the single-dummy best card"),
    "uncertain": "uncertain: more worlds would decide",
}


def meaning(verdict: str, unit: str = "points") -> str:
    """The verdict in words, its mistake line in `unit` ("points" or "tricks")."""
    if verdict in ("mistake", "minor") and unit != "points":
        return MEANINGS[verdict].replace(f"{MISTAKE_POINTS:g} points",
                                         f"{MISTAKE_LINE[unit]:g} {unit}")
    return MEANINGS.get(verdict, verdict)


@dataclass(frozen=True)
class PairedLoss:
    """The played card against the best card over the same worlds: the mean loss (points for
    the card's team) and its 95% interval."""

    card: Card
    loss: float                 # mean paired difference to the single-dummy best card, >= 0
    low: float
    high: float                 # math.inf when one world cannot bound it
    best_cards: List[Card]      # the cards with the highest mean
    worlds: int


def paired_loss(values: Mapping[Card, Sequence[float]], card: CardLike) -> PairedLoss:
    """The loss of `card` against the best card, from every legal card's value in each world
    (`values[c][w]`, the same worlds in the same order for every card)."""
    card = Card.parse(card)
    n = len(values[card])
    means = {c: sum(v) / n for c, v in values.items()}
    top = max(means.values())
    best = [c for c, m in means.items() if m >= top - 1e-9]
    loss = max(top - means[card], 0.0)
    others = [c for c in values if c != card]
    if not others:
        return PairedLoss(card, 0.0, 0.0, 0.0, best, n)
    if n == 1:      # one world shows no spread to measure
        return PairedLoss(card, loss, 0.0, math.inf, best, n)
    tail = (1 - CONFIDENCE) / 2
    # t quantiles: the low end's Bonferroni-corrected, the high end's per card
    q_low, q_high = t_quantile(1 - tail / len(others), n - 1), t_quantile(1 - tail, n - 1)
    lows, highs = [], []
    for other in others:
        diffs = [a - b for a, b in zip(values[other], values[card])]
        mean = sum(diffs) / n
        # No spread at all (every world agrees) gives a zero-width interval.
        stderr = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        lows.append(mean - q_low * stderr)
        highs.append(mean + q_high * stderr)
    return PairedLoss(card, loss, max(max(lows), 0.0), max(max(highs), 0.0), best, n)


def sd_verdict(dd_loss: int, loss: float, low: float, high: float,
               line: float = MISTAKE_POINTS) -> str:
    """The verdict on a card from its double-dummy loss and its single-dummy loss with the 95%
    interval: "mistake" when the whole interval is at or above `line` (MISTAKE_POINTS; for
    ledig's tricks MISTAKE_TRICKS: the loss is significant, and at least that large). When
    the whole interval is below it: "optimal" without a double-dummy loss; with one, "minor"
    when the interval is above zero (surely worse than the single-dummy best card, by less
    than the line), else "unlucky" (as good as the best card on what the player could
    know). Otherwise "uncertain": more worlds would decide.

    Both decisions need the interval on one side of the same line, so two seeds can only
    disagree by a 2.5% error on one of them: near the line the verdict stays "uncertain".

    >>> sd_verdict(14, 0.4, 0.0, 3.1), sd_verdict(0, 7.6, 0.0, 20.1), sd_verdict(0, 42, 21, 62)
    ('unlucky', 'uncertain', 'mistake')
    >>> sd_verdict(2, 1.7, 1.1, 2.2)
    'minor'
    """
    if low >= line:
        return "mistake"
    if high < line:
        if not dd_loss:
            return "optimal"
        return "minor" if low > 0 else "unlucky"
    return "uncertain"


def is_decided(dd_loss: int, loss: PairedLoss, line: float = MISTAKE_POINTS) -> bool:
    """Whether the verdict on this card is decided (more worlds are needed when not)."""
    return sd_verdict(dd_loss, loss.loss, loss.low, loss.high, line) != "uncertain"


def t_quantile(p: float, dof: int) -> float:
    """The `p` quantile (p > 0.5) of Student's t distribution with `dof` degrees of freedom.

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 3)
    (12.706, 2.228)
    """
    return _t_quantile(float(p), int(dof))


@lru_cache(maxsize=None)
def _t_quantile(p: float, dof: int) -> float:
    if not 0.5 < p < 1 or dof < 1:
        raise ValueError(f"t_quantile needs 0.5 < p < 1 and dof >= 1, got p={p}, dof={dof}")
    if dof > LARGE_DOF:                 # the series below costs O(dof) an evaluation
        return _t_quantile_expansion(p, dof)
    target = 2 * p - 1                  # P(|T| <= t)
    low, high = 0.0, 1.0
    while _t_central(high, dof) < target:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if _t_central(middle, dof) < target:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# Above this many degrees of freedom the quantile comes from its expansion in 1/dof (the
# normal quantile plus three terms: Abramowitz and Stegun 26.7.5), off by less than 1e-9 there.
LARGE_DOF = 2000


def _t_quantile_expansion(p: float, dof: int) -> float:
    z = NormalDist().inv_cdf(p)
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / dof + g2 / dof ** 2 + g3 / dof ** 3


def _t_central(t: float, dof: int) -> float:
    """P(|T| <= t) for Student's t, the finite series for whole degrees of freedom
    (Abramowitz and Stegun 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(dof))
    cos2 = math.cos(theta) ** 2
    if dof % 2:
        term, total = math.cos(theta), 0.0
        for j in range(1, (dof - 1) // 2 + 1):
            total += term
            term *= cos2 * (2 * j) / (2 * j + 1)
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term, total = 1.0, 0.0
    for j in range(1, dof // 2 + 1):
        total += term
        term *= cos2 * (2 * j - 1) / (2 * j)
    return math.sin(theta) * total
