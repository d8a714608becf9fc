"""Many positions in one call: NumPy arrays in the labels' schema in, every card's value out.

Each position is a row: `deal` int8[N, 32] (the seat, 0..3 for N E S W, dealt each card, by
card index `suit * 8 + rank`), `trump` (suit 0..3 for C D H S, or the letters), `leader` (the
seat leading trick 1) and `playing` (team 0 NS, 1 EW) int8[N], and `played` int8[N, 32]: the
card indices played so far, padded with -1. A ledig round (rules contract "ledig") has a
`bidder` column too (its seat; `trump` is -1 under ledig_trump "none"), and a round at a
table of three a `dummy` column (the silent partner's seat), as the labels have; their team
plays. `deal_row`, `played_row` and `game_rows` build the rows from a `Deal`, the cards
played or `Game`s.

`move_values` returns int16[N, 32]: the value of each legal card of the player to move for an
objective, seen from that player's team (the labels' `values`; `seen_from="playing"` gives
the playing team's view, as `solve_moves`), and NOT_LEGAL (-32768) for every other card.
`position_values` returns int16[N]: each position's value for the playing team, as `solve`.
The rows are checked first (a bad one raises the package's error naming its row and field),
then searched in C without the GIL, on `workers` threads each with its own engine and table,
with no Python between the positions.

>>> from solver import Deal
>>> deal = deal_row(Deal.random(1))[None, :]
>>> values = move_values(deal, trump="D", leader=1, playing="NS")
>>> values.shape, values.dtype, int((values[0] != NOT_LEGAL).sum())
((1, 32), dtype('int16'), 8)
"""
from .rows import deal_row, game_rows, played_row
from ..model.label_row import NOT_LEGAL
from .search import SIDES, PositionBatch, move_values, position_values

__all__ = ["NOT_LEGAL", "SIDES", "PositionBatch", "deal_row", "game_rows", "move_values",
           "played_row", "position_values"]
