"""HTML pictures of deals and results: the report page (`render`) and each result's rich output
in Jupyter (`deal_html`, `solve_result_html`, `dd_table_html`, `play_analysis_html`,
`bid_analysis_html`). Built from `pieces`; the CSS and JS are the files beside them.

This layer only presents what it is given: it imports the model and the errors, never the
engine or the analyses, and solves nothing. The caller computes the DD table and the score:

>>> from solver import GameRecord, Solver, analyse_play, solve_table
>>> record = GameRecord.load("examples/game.json")
>>> page = render(analyse_play(record), solve_table(record.deal, record.rules),
...               Solver(record.rules).value(record.game(), "score"))
>>> page.startswith("<!DOCTYPE html>")
True
"""
from .jupyter import (bid_analysis_html, dd_table_html, deal_html, play_analysis_html,
                      solve_result_html)
from .page import render

__all__ = ["render", "deal_html", "solve_result_html", "dd_table_html", "play_analysis_html",
           "bid_analysis_html"]
