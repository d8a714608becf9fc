"""The arena page: one self-contained HTML page of a duplicate arena's result (inline CSS and
SVG, nothing fetched, no script): the score and points difference per deal with their
95% intervals (Student's t) as bars, each bot's double-dummy loss per card by trick, and
the table of numbers.

It is drawn from `ArenaResult.to_dict()`, a plain dict, and computes nothing.

>>> data = {"deals": 2, "seed": 1, "mean_score_diff": 12.5, "ci95": [-3.0, 28.0],
...         "mean_points_diff": 8.0, "points_ci95": [-1.0, 17.0], "sd_worlds": 0,
...         "bots": {side: {"name": name, "cards": 40, "dd_loss_per_card": loss,
...                         "optimal_share": 0.8, "dd_loss_by_trick": [loss] * 8,
...                         "sd_loss_per_card": None, "ms_per_move_median": 1.0,
...                         "ms_per_move_p95": 2.0}
...                  for side, name, loss in (("a", "rule", 6.0), ("b", "random", 14.0))}}
>>> page = render_arena(data)
>>> page.startswith("<!DOCTYPE html>"), page.count('data-chart=')
(True, 2)
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Sequence, Tuple

from ..errors import SolverError, quote, reading_fields
from .jupyter import fragment
from .pieces import asset, esc

SIDE_COLOURS = {"a": "#1565c0", "b": "#ef6c00"}
WIDTH = 720


def render_arena(data: Mapping[str, Any]) -> str:
    """The arena's result (`ArenaResult.to_dict()`) as one HTML page."""
    body = arena_fragment(data)
    a, b = (data["bots"][side]["name"] for side in ("a", "b"))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(a)} against {esc(b)} — klaverjas-solver arena</title>
<style>{asset("report.css")}{asset("page.css")}</style></head>
<body><main class="kj">{body}</main></body></html>
"""


def arena_fragment(data: Mapping[str, Any]) -> str:
    """The page's sections without the page around them (for Jupyter)."""
    _check(data)
    bots = data["bots"]
    a, b = bots["a"], bots["b"]
    low, high = data["ci95"]
    return f"""<section><h1>{esc(a["name"])} (a) against {esc(b["name"])} (b)</h1>
<p>{data["deals"]} deals, each played at two tables with the same cards, trump and leader and
the teams swapped (seed {esc(data["seed"])}). Differences are team a minus team b per deal,
the mean of its two tables, with their 95% interval by Student's t.</p>
<p class="headline" data-score-diff="{data["mean_score_diff"]:.3f}">Score: a − b =
<b>{data["mean_score_diff"]:+.1f}</b> per deal (95% interval {low:+.1f} to {high:+.1f})</p></section>
<section><h2>Difference per deal, with its 95% interval (Student's t)</h2>
{difference_chart(data)}</section>
<section><h2>Double-dummy loss per card, by trick</h2>
<p>The points each bot's cards give away against the best card with every hand seen
(our points minus theirs), averaged over its cards with a choice in each trick.</p>
{loss_by_trick_chart(bots)}{_legend(bots)}</section>
<section><h2>The bots</h2>{bots_table(bots, data.get("sd_worlds", 0))}</section>"""


def arena_html(data: Mapping[str, Any]) -> str:
    """The arena's result as rich output in Jupyter: the sections with the shared style."""
    return fragment(arena_fragment(data))


def _check(data: Any) -> None:
    with reading_fields("an arena result", data):
        for key in ("deals", "seed", "mean_score_diff", "ci95", "mean_points_diff",
                    "points_ci95"):
            data[key]
        for side in ("a", "b"):
            stats = data["bots"][side]
            with reading_fields(f"bot {side}'s statistics", stats):
                for key in ("name", "cards", "dd_loss_per_card", "optimal_share",
                            "dd_loss_by_trick", "ms_per_move_median", "ms_per_move_p95"):
                    stats[key]
            if len(stats["dd_loss_by_trick"]) != 8:
                raise SolverError(f"bot {side}'s dd_loss_by_trick must hold 8 numbers, one a "
                                  f"trick, got {quote(stats['dd_loss_by_trick'])}")


def _scale(values: Sequence[float]) -> float:
    """A round number at least as large as every |value| (and above 0)."""
    top = max([abs(v) for v in values] + [1.0])
    step = 1.0
    while step < top:
        step *= 2 if str(step)[0] in "15" else 2.5
    return step


def difference_chart(data: Mapping[str, Any]) -> str:
    """Horizontal bars from 0 for the score and points differences, the interval as a line."""
    rows: List[Tuple[str, str, float, Sequence[float]]] = [
        ("score", "score a − b", data["mean_score_diff"], data["ci95"]),
        ("points", "points a − b", data["mean_points_diff"], data["points_ci95"])]
    span = _scale([v for _, _, mean, ci in rows for v in (mean, *ci)])
    left, right, row_h = 120, WIDTH - 20, 36
    mid = (left + right) / 2

    def x(v: float) -> float:
        return mid + v / span * (right - left) / 2
    parts = [f'<line x1="{mid}" y1="4" x2="{mid}" y2="{len(rows) * row_h + 8}" stroke="#455a64"/>']
    for i, (key, label, mean, (low, high)) in enumerate(rows):
        y = 8 + i * row_h
        colour = "#2e7d32" if mean >= 0 else "#c62828"
        parts.append(f'<text x="{left - 8}" y="{y + 18}" text-anchor="end">{label}</text>')
        parts.append(f'<rect data-bar="{key}" x="{min(x(0), x(mean)):.1f}" y="{y + 4}" '
                     f'width="{abs(x(mean) - x(0)):.1f}" height="20" fill="{colour}" '
                     f'opacity=".75"><title>{label}: {mean:+.1f} per deal</title></rect>')
        parts.append(f'<line data-interval="{key}" x1="{x(low):.1f}" y1="{y + 14}" '
                     f'x2="{x(high):.1f}" y2="{y + 14}" stroke="#1d232a" stroke-width="2"/>')
        for end in (low, high):
            parts.append(f'<line x1="{x(end):.1f}" y1="{y + 7}" x2="{x(end):.1f}" '
                         f'y2="{y + 21}" stroke="#1d232a" stroke-width="2"/>')
    height = len(rows) * row_h + 30
    parts.append(f'<text x="{x(-span):.0f}" y="{height - 4}">{-span:+g}</text>')
    parts.append(f'<text x="{mid}" y="{height - 4}" text-anchor="middle">0</text>')
    parts.append(f'<text x="{x(span):.0f}" y="{height - 4}" text-anchor="end">{span:+g}</text>')
    return (f'<svg data-chart="difference" viewBox="0 0 {WIDTH} {height}" role="img" '
            f'aria-label="score and points difference per deal">{"".join(parts)}</svg>')


def loss_by_trick_chart(bots: Mapping[str, Mapping[str, Any]]) -> str:
    """Grouped bars: for each trick, each bot's mean double-dummy loss per card."""
    values = {side: [float(v) for v in bots[side]["dd_loss_by_trick"]] for side in ("a", "b")}
    top = _scale(values["a"] + values["b"])
    left, bottom, plot_h = 40, 190, 170
    group = (WIDTH - left - 10) / 8
    bar = group * 0.36
    parts = [f'<line x1="{left}" y1="{bottom}" x2="{WIDTH - 10}" y2="{bottom}" stroke="#455a64"/>',
             f'<text x="{left - 6}" y="{bottom - plot_h + 10}" text-anchor="end">{top:g}</text>',
             f'<text x="{left - 6}" y="{bottom}" text-anchor="end">0</text>']
    for trick in range(8):
        gx = left + trick * group + group * 0.14
        for k, side in enumerate(("a", "b")):
            v = values[side][trick]
            h = v / top * plot_h
            parts.append(f'<rect data-side="{side}" data-trick="{trick + 1}" '
                         f'x="{gx + k * bar:.1f}" y="{bottom - h:.1f}" width="{bar:.1f}" '
                         f'height="{h:.1f}" fill="{SIDE_COLOURS[side]}"><title>'
                         f'{esc(bots[side]["name"])}, trick {trick + 1}: {v:.2f} per card'
                         f'</title></rect>')
        parts.append(f'<text x="{gx + bar:.1f}" y="{bottom + 16}" text-anchor="middle">'
                     f'{trick + 1}</text>')
    return (f'<svg data-chart="dd-by-trick" viewBox="0 0 {WIDTH} {bottom + 24}" role="img" '
            f'aria-label="double-dummy loss per card by trick">{"".join(parts)}</svg>')


def _legend(bots: Mapping[str, Mapping[str, Any]]) -> str:
    return '<p class="legend">' + "".join(
        f'<span><svg width="12" height="12" style="width:12px"><rect width="12" height="12" '
        f'fill="{SIDE_COLOURS[side]}"/></svg> {side}: {esc(bots[side]["name"])}</span>'
        for side in ("a", "b")) + " trick number below each group</p>"


def bots_table(bots: Mapping[str, Mapping[str, Any]], sd_worlds: int) -> str:
    """Each bot's numbers: cards with a choice, DD loss per card, optimal share, the share
    of its first leads that lose nothing double dummy, SD loss, time per move."""
    head = ("team", "bot", "cards", "DD loss / card", "optimal", "first leads optimal",
            "SD loss / card", "ms / move (median)", "p95")
    rows = []
    for side in ("a", "b"):
        s: Dict[str, Any] = dict(bots[side])
        sd = "–" if s.get("sd_loss_per_card") is None else f'{s["sd_loss_per_card"]:.2f}'
        # Results written before the first leads were measured have none.
        lead = ("–" if s.get("first_lead_share") is None
                else f'{s["first_lead_share"]:.1%} of {s.get("first_leads", 0)}')
        cells = (side, esc(s["name"]), s["cards"], f'{s["dd_loss_per_card"]:.2f}',
                 f'{s["optimal_share"]:.1%}', lead, sd, f'{s["ms_per_move_median"]:.1f}',
                 f'{s["ms_per_move_p95"]:.1f}')
        rows.append(f'<tr data-bot="{side}">' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    note = (f"<p>Single dummy over {sd_worlds} worlds a card.</p>" if sd_worlds else "")
    return ('<table class="grid"><tr>' + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
            + "".join(rows) + "</table>" + note)
