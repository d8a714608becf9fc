"""HTML pictures of deals and results: the report page (`render`), the arena's page
(`render_arena`) and each result's rich output in Jupyter (`deal_html`, `solve_result_html`,
`dd_table_html`, `play_analysis_html`, `bid_analysis_html`). Built from `pieces`; the CSS and
JS are the files beside them.

This layer only presents what it is given: it imports the model and the errors, never the
engine or the analyses, and solves nothing: the caller computes the DD table and the score
(`page` shows how).
"""
from .jupyter import (bid_analysis_html, dd_table_html, deal_html, play_analysis_html,
                      solve_result_html)
from .arena import render_arena
from .page import render

__all__ = ["render", "render_arena", "deal_html", "solve_result_html", "dd_table_html",
           "play_analysis_html", "bid_analysis_html"]
