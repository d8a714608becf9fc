"""What an arena measured: `ArenaResult` (the score difference per deal with its 95%
interval, the points difference, and `BotStats` for each team's bot), with `to_dict` /
`from_dict` for `--json` and a readable table in `str()`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..analysis.verdicts import CONFIDENCE, t_quantile
from ..errors import reading_fields


def mean_and_ci95(values: Sequence[float]) -> Tuple[float, Tuple[float, float]]:
    """The mean of `values` and its 95% interval by Student's t (mean ± t(0.975, n - 1)
    standard errors, the quantile the single-dummy verdicts use; a single value has no spread
    to measure: its interval is the value itself).

    >>> mean_and_ci95([1.0, 3.0])       # t(0.975, 1) = 12.706
    (2.0, (-10.706205, 14.706205))
    """
    n = len(values)
    if n == 0:
        return 0.0, (0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return mean, (mean, mean)
    quantile_t = t_quantile(1 - (1 - CONFIDENCE) / 2, n - 1)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n) * quantile_t
    return mean, (round(mean - spread, 6), round(mean + spread, 6))


def quantile(values: Sequence[float], q: float) -> float:
    """The `q` quantile of `values`, linearly interpolated (NumPy's default).

    >>> quantile([1, 2, 3, 4], 0.5), quantile([1, 2, 3, 4], 0.95)
    (2.5, 3.85)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (at - low), 9)


@dataclass(frozen=True)
class BotStats:
    """One team's bot over the arena: how many cards it chose (with a choice: a forced card
    is not counted), its mean double-dummy loss per card, the share of optimal cards, the
    mean loss per card in each trick (1..8), the single-dummy loss per card (None when not
    measured), its time per move in milliseconds (every move, forced ones included), and
    how many rounds it led (the first card of a table) with the share of those first leads
    that lose nothing double dummy (bridge's opening-lead measure; None when it led none, and
    in results written before it was measured)."""

    name: str
    cards: int
    dd_loss_per_card: float
    optimal_share: float
    dd_loss_by_trick: List[float]
    sd_loss_per_card: Optional[float]
    ms_per_move_median: float
    ms_per_move_p95: float
    first_leads: int = 0
    first_lead_share: Optional[float] = None

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values."""
        return {"name": self.name, "cards": self.cards,
                "dd_loss_per_card": self.dd_loss_per_card, "optimal_share": self.optimal_share,
                "dd_loss_by_trick": list(self.dd_loss_by_trick),
                "sd_loss_per_card": self.sd_loss_per_card,
                "ms_per_move_median": self.ms_per_move_median,
                "ms_per_move_p95": self.ms_per_move_p95,
                "first_leads": self.first_leads, "first_lead_share": self.first_lead_share}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "BotStats":
        """The statistics `to_dict` wrote (older results, without the first leads, too)."""
        with reading_fields("bot statistics", d):
            return cls(d["name"], d["cards"], d["dd_loss_per_card"], d["optimal_share"],
                       list(d["dd_loss_by_trick"]), d["sd_loss_per_card"],
                       d["ms_per_move_median"], d["ms_per_move_p95"],
                       d.get("first_leads", 0), d.get("first_lead_share"))


@dataclass(frozen=True)
class DealResult:
    """One deal played at both tables: team a's score and points minus team b's, at the
    table where a sits North-South and at the one where it sits East-West."""

    deal_id: int
    score_diffs: Tuple[int, int]
    points_diffs: Tuple[int, int]

    @property
    def score_diff(self) -> float:
        """Team a's score minus team b's, averaged over the deal's two tables."""
        return sum(self.score_diffs) / 2

    @property
    def points_diff(self) -> float:
        """Team a's points (card points, roem, pit) minus team b's, averaged over both tables."""
        return sum(self.points_diffs) / 2

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values."""
        return {"deal_id": self.deal_id, "score_diffs": list(self.score_diffs),
                "points_diffs": list(self.points_diffs)}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "DealResult":
        """The deal `to_dict` wrote."""
        with reading_fields("a deal result", d):
            return cls(d["deal_id"], (d["score_diffs"][0], d["score_diffs"][1]),
                       (d["points_diffs"][0], d["points_diffs"][1]))


@dataclass(frozen=True)
class ArenaResult:
    """A duplicate arena: team a against team b over `deals` deals, each played at two tables
    with the teams swapped. Every difference is team a minus team b, per deal (the mean of
    its two tables), with a 95% interval."""

    seed: int
    rules: Dict[str, Any]
    sd_worlds: int
    bots: Dict[str, BotStats]          # "a" and "b"
    per_deal: List[DealResult] = field(default_factory=list)
    wall_seconds: float = 0.0

    @property
    def deals(self) -> int:
        """How many deals were played (each at two tables)."""
        return len(self.per_deal)

    def _over_deals(self, diff: str) -> Tuple[float, Tuple[float, float]]:
        """mean_and_ci95 of one DealResult difference ("score_diff", "points_diff")."""
        return mean_and_ci95([getattr(d, diff) for d in self.per_deal])

    @property
    def mean_score_diff(self) -> float:
        """Team a's score minus team b's per deal, averaged over the deals."""
        return self._over_deals("score_diff")[0]

    @property
    def ci95(self) -> Tuple[float, float]:
        """The 95% interval of `mean_score_diff`."""
        return self._over_deals("score_diff")[1]

    @property
    def mean_points_diff(self) -> float:
        """Team a's points minus team b's per deal, averaged over the deals."""
        return self._over_deals("points_diff")[0]

    @property
    def points_ci95(self) -> Tuple[float, float]:
        """The 95% interval of `mean_points_diff`."""
        return self._over_deals("points_diff")[1]

    def to_dict(self) -> Dict[str, Any]:
        """Plain JSON-ready values; `ArenaResult.from_dict` reads them back."""
        return {"deals": self.deals, "seed": self.seed, "rules": dict(self.rules),
                "sd_worlds": self.sd_worlds,
                "mean_score_diff": self.mean_score_diff, "ci95": list(self.ci95),
                "mean_points_diff": self.mean_points_diff, "points_ci95": list(self.points_ci95),
                "bots": {side: stats.to_dict() for side, stats in self.bots.items()},
                "wall_seconds": self.wall_seconds,
                "per_deal": [d.to_dict() for d in self.per_deal]}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "ArenaResult":
        """The result `to_dict` wrote."""
        with reading_fields("an arena result", d):
            return cls(d["seed"], dict(d["rules"]), d["sd_worlds"],
                       {side: BotStats.from_dict(s) for side, s in d["bots"].items()},
                       [DealResult.from_dict(x) for x in d["per_deal"]], d["wall_seconds"])

    def __str__(self) -> str:
        a, b = self.bots["a"], self.bots["b"]
        low, high = self.ci95
        plow, phigh = self.points_ci95
        lines = [f"{a.name} (a) against {b.name} (b): {self.deals} deals, each played at two "
                 f"tables with the teams swapped (seed {self.seed})",
                 f"  score  a - b per deal {self.mean_score_diff:+8.1f}   95% interval "
                 f"[{low:+.1f}, {high:+.1f}] (Student's t)",
                 f"  points a - b per deal {self.mean_points_diff:+8.1f}   95% interval "
                 f"[{plow:+.1f}, {phigh:+.1f}]",
                 "",
                 f"  {'team':<5}{'bot':<22}{'cards':>7}{'DD loss/card':>14}{'optimal':>9}"
                 f"{'1st lead ok':>13}{'SD loss/card':>14}{'ms/move':>9}{'p95':>9}"]
        for side, s in (("a", a), ("b", b)):
            sd = "-" if s.sd_loss_per_card is None else f"{s.sd_loss_per_card:.2f}"
            lead = "-" if s.first_lead_share is None else f"{s.first_lead_share:.1%}"
            lines.append(f"  {side:<5}{s.name[:21]:<22}{s.cards:>7}{s.dd_loss_per_card:>14.2f}"
                         f"{s.optimal_share:>9.1%}{lead:>13}{sd:>14}"
                         f"{s.ms_per_move_median:>9.1f}{s.ms_per_move_p95:>9.1f}")
        lines.append("")
        lines.append("  DD loss per card by trick " + " ".join(f"{t:>6}" for t in range(1, 9)))
        for side, s in (("a", a), ("b", b)):
            lines.append(f"  {side:<26} " + " ".join(f"{x:6.2f}" for x in s.dd_loss_by_trick))
        return "\n".join(lines)

    def to_html(self) -> str:
        """The arena as an HTML page of its own (`solver.html.arena`)."""
        from ..html.arena import render_arena
        return render_arena(self.to_dict())

    def _repr_html_(self) -> str:
        from ..html.arena import arena_html
        return arena_html(self.to_dict())
