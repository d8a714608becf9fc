"""One table of the arena: a deal played out by four bots, every card judged as it is
played: its double-dummy loss (the points it gives away against the best card, from the
solver's move values with every hand seen), single dummy when asked (the loss over worlds
its player could not tell apart), and the time the bot took.

>>> from solver import Deal, Solver
>>> from solver.bots import RandomBot
>>> table = play_table(Deal.random(1), "H", "E", "NS", [RandomBot(s) for s in range(4)],
...                    Solver())
>>> len(table.moves), table.moves[0].seat
(32, <Seat.E: 1>)
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import List, Sequence

from ..analysis.view import analyse_view
from ..model.worlds import MOST_WORLDS
from ..bots import Bot
from ..engine.search import Solver
from ..errors import BotError, quote, whole_number
from ..model.cards import ByTeam, Card, Seat, SuitLike, SeatLike, TeamLike, Team
from ..model.deal import Deal
from ..model.game import Game
from ..model.scoring import final_scores, value_for_team
from ..model.streams import derive

# How the arena judges a card: the points objective, what the labels' `values` hold.
OBJECTIVE = "points"


@dataclass(frozen=True)
class Move:
    """One card played at a table and how it was judged."""

    seat: Seat
    trick: int              # 1..8
    card: Card
    choices: int            # how many legal cards it had
    seconds: float          # the bot's time to choose it
    dd_loss: int            # points given away double dummy (0: an optimal card)
    sd_loss: float          # points given away single dummy (0.0 when not measured)


@dataclass(frozen=True)
class TableResult:
    """A table played out: every move, and each team's final score and points."""

    moves: List[Move]
    scores: ByTeam
    points: ByTeam          # card points, roem and pit together (Tally.total)


def play_table(deal: Deal, trump: SuitLike, leader: SeatLike, playing: TeamLike,
               bots: Sequence[Bot], solver: Solver, sd_worlds: int = 0,
               sd_seed: int = 0) -> TableResult:
    """The round of `deal` played by `bots` (one per seat, N E S W), judged by `solver`
    (for the round's rules). With `sd_worlds`, each card with a choice is judged single
    dummy over that many worlds, drawn with a seed mixed from `sd_seed` and the cards
    played."""
    if not isinstance(solver, Solver):
        raise BotError(f"play_table needs a Solver (Solver(rules)) to judge the cards, got "
                       f"{quote(solver)}")
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or len(bots) != 4 or \
            not all(isinstance(bot, Bot) for bot in bots):
        raise BotError(f"play_table needs four Bots, one per seat N E S W, got {quote(bots)}")
    sd_worlds = whole_number("sd_worlds", sd_worlds, 0, MOST_WORLDS, error=BotError)
    sd_seed = whole_number("sd_seed", sd_seed, 0, error=BotError)
    game = Game(deal, trump, leader, playing, solver.rules)
    moves: List[Move] = []
    while not game.is_over:
        seat = game.to_move
        legal = game.legal_cards()
        start = time.perf_counter()
        card = bots[seat].act(game, seat)
        seconds = time.perf_counter() - start
        dd_loss, sd_loss = 0, 0.0
        if len(legal) > 1:
            dd_loss = _dd_loss(solver, game, card)
            if sd_worlds:
                view = analyse_view(game, worlds=sd_worlds, seed=derive(sd_seed, len(game.played)),
                                    objective=OBJECTIVE, solver=solver)
                sd_loss = view.loss(card)
        moves.append(Move(seat, game.trick_number, card, len(legal), seconds, dd_loss, sd_loss))
        game.play(card)
    tallies = game.tallies()
    return TableResult(moves, final_scores(tallies, game.playing, game.trump, game.rules),
                       ByTeam({team: tallies[team].total for team in Team}))


def _dd_loss(solver: Solver, game: Game, card: Card) -> int:
    """The points `card` gives away against the best card, every hand seen."""
    values = solver.move_values(game, OBJECTIVE)
    team = game.to_move.team
    mine = {c: value_for_team(int(v), team, game.playing) for c, v in values.items()}
    return max(mine.values()) - mine[card]
