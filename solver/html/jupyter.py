"""Rich output in Jupyter: one function per result type, each the HTML its `_repr_html_`
returns. A fragment carries the shared style and a wrapper that scopes it.

>>> from solver import Deal
>>> 'data-card="SA"' in deal_html(Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"))
True
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.cards import Team
from ..model.deal import Deal
from .pieces import (asset, bid_tables_html, bid_verdict_html, cards_html, chart_svg,
                     compass_html, dd_table_grid, esc, ledig_bids_html, ledig_table_grid,
                     tricks_html)

if TYPE_CHECKING:   # pragma: no cover
    from ..analysis import BidAnalysis, DDTable, LedigTable, PlayAnalysis
    from ..engine.search import SolveResult


def fragment(body: str) -> str:
    """`body` with the shared style, inside the `.kj` wrapper the style is scoped to."""
    return f'<style>{asset("report.css")}</style><div class="kj">{body}</div>'


def deal_html(deal: Deal) -> str:
    """A `Deal`: the four hands around the table."""
    return fragment(compass_html(deal))


def solve_result_html(result: "SolveResult") -> str:
    """A `SolveResult`: the value, each team's total, and the optimal line trick by trick."""
    line = [result.line[i:i + 4] for i in range(0, len(result.line), 4)]
    value = result.value if isinstance(result.value, bool) else f"{result.value:+d}"
    return fragment(f"<div><b>{result.objective} = {value}</b> (NS {result.totals['NS']}, EW "
                    f"{result.totals['EW']}; {result.nodes} nodes)</div><div>line: "
                    + " &nbsp; ".join(cards_html(t) for t in line) + "</div>")


def dd_table_html(table: "DDTable") -> str:
    """A `DDTable`: NS points by trump and leader."""
    return fragment(dd_table_grid(table, Team.NS))


def ledig_table_html(table: "LedigTable") -> str:
    """A `LedigTable`: each bidder's ledig by leader (and trump)."""
    return fragment(ledig_table_grid(table))


def play_analysis_html(analysis: "PlayAnalysis") -> str:
    """A `PlayAnalysis`: its summary, the chart and the tricks."""
    return fragment(f"<div>{esc(analysis.summary()).replace(chr(10), '<br>')}</div>"
                    f"{chart_svg(analysis)}{tricks_html(analysis)}")


def bid_analysis_html(bids: "BidAnalysis") -> str:
    """A `BidAnalysis`: every seat's value for every trump, a table per round of the procedure,
    greyed where the seat may not choose; then the verdict on the recorded bid."""
    turned = f", turned {bids.turned}" if bids.turned is not None else ""
    marks = ("! must play when all pass" if bids.rounds()[0].name is not None
             else "grey: not open to that seat")
    return fragment(f"<div>{esc(bids.procedure)}{turned}, dealer {bids.dealer}: points for the "
                    f"chooser's team; * makeable; {marks}</div>"
                    f"{bid_tables_html(bids)}{ledig_bids_html(bids)}{bid_verdict_html(bids)}")
