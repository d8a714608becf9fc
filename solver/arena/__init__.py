"""The duplicate arena: two teams of bots over the same deals, each deal played twice with
the teams swapped, scored by the difference per deal with its 95% interval (Student's t) and
by each bot's double-dummy error (the points its cards give away against the best card, every
hand seen), the share of its first leads that lose nothing, and its single-dummy error (over
worlds its player could not tell apart).

- `play_arena` (`run`): the arena, on worker processes, the same result for a seed whatever
  their number.
- `play_table` (`table`): one table played out and every card judged.
- `ArenaResult`, `BotStats` (`result`): what it measured, with `to_dict` for `--json`.
- `make_bot` (`names`): bots by the names the command line uses.

>>> from solver.arena import play_arena
>>> result = play_arena("dd", "random", deals=1, seed=0, workers=1)
>>> result.bots["a"].dd_loss_per_card
0.0
"""
from .names import BOT_NAMES, make_bot
from .result import ArenaResult, BotStats, DealResult
from .run import play_arena
from .table import Move, TableResult, play_table

__all__ = ["play_arena", "ArenaResult", "BotStats", "DealResult", "play_table", "Move",
           "TableResult", "make_bot", "BOT_NAMES"]
