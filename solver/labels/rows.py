"""The rows of a deal: the round played out by `config.play`, a row at each labelled position
with the exact value of every legal card, seen from the team to move.

Every draw (the deal, its trump, leader and playing team, the random cards) comes from the
deal's own seeded streams, so a deal's rows never depend on which worker made them.

>>> from solver import Solver
>>> rows = deal_rows(LabelConfig(positions="root"), 0, Solver())
>>> len(rows), sorted(rows[0])[:4]
(1, ['best', 'deal', 'deal_id', 'leader'])
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ..analysis.view import analyse_view
from ..engine.search import Solver, first_optimal_card
from ..model.cards import Card, Seat, Suit, Team
from ..model.deal import Deal
from ..model.game import Game
from ..model.label_row import game_from_row
from ..model.rules import RulesLike
from ..model.scoring import value_for_team
from ..model.streams import SplitMix64, derive
from .config import NOT_LEGAL, LabelConfig, schema

# The last labelled position, counted in cards played, for each `positions`.
_LAST_LABELLED = {"root": 0, "trick-starts": 28, "all": 31}


def deal_setup(config: LabelConfig, deal_id: int) -> Tuple[Deal, Optional[Suit], Seat, Team]:
    """Deal `deal_id` of the run, with its trump, leader and playing team: the first four of
    `config.rounds().round(deal_id)` (`solver.model.rounds`, where the stream is drawn)."""
    deal, trump, leader, playing, _, _ = config.rounds().round(deal_id)
    return deal, trump, leader, playing


def _labelled(config: LabelConfig, cards_played: int) -> bool:
    if config.positions == "root":
        return cards_played == 0
    if config.positions == "trick-starts":
        return cards_played % 4 == 0
    return True


def deal_rows(config: LabelConfig, deal_id: int, solver: Solver) -> List[Dict[str, Any]]:
    """The rows of one deal: the round is played by `config.play`, labelling as it goes.
    `solver` is a `Solver` for `config.rules` (or anything with its methods)."""
    setup = config.rounds().round(deal_id)
    deal, trump, leader, playing, bidder, dummy = setup
    game = setup.game(config.rules)
    rng = SplitMix64(derive(config.seed, deal_id, 2))
    optimal_share = config.optimal_share()
    last = _LAST_LABELLED[config.positions]
    seats: np.ndarray = np.zeros(32, dtype=np.int8)
    for seat in Seat:
        for card in deal[seat]:
            seats[card.index] = seat
    rows = []
    for cards_played in range(last + 1):
        legal = game.legal_cards()
        best_card = None
        if _labelled(config, cards_played) and not (config.skip_forced and len(legal) == 1):
            row, best_card = _row(config, game, solver, deal_id)
            row.update(deal_id=deal_id, deal=seats, trump=-1 if trump is None else int(trump),
                       leader=int(leader), playing=int(playing))
            if bidder is not None:
                row["bidder"] = int(bidder)
            if dummy is not None:
                row["dummy"] = int(dummy)
            rows.append(row)
        if cards_played == last:
            break
        # Every draw comes from this deal's own stream: rows never depend on scheduling.
        if len(legal) == 1:
            card = legal[0]
        elif optimal_share >= 1.0 or (optimal_share > 0.0 and rng.next() < optimal_share * 2**64):
            card = best_card if best_card is not None else solver.best_card(game)
        else:
            card = legal[rng.below(len(legal))]
        game.play(card)
    return rows


def _row(config: LabelConfig, game: Game, solver: Solver, deal_id: int) -> Tuple[Dict[str, Any], Card]:
    """The position's own columns, seen from the team to move, and the first card in card
    order with the best value."""
    team, playing = game.to_move.team, game.playing
    if "make" in config.objectives:
        values, makes = solver.move_values_and_makes(game, "points")
    else:
        values = solver.move_values(game, "points")
    mine = {card: value_for_team(value, team, playing) for card, value in values.items()}
    column: np.ndarray = np.full(32, NOT_LEGAL, dtype=np.int16)
    for card, value in mine.items():
        column[card.index] = value
    played: np.ndarray = np.full(32, -1, dtype=np.int8)
    played[:len(game.played)] = [c.index for c in game.played]
    row: Dict[str, Any] = {"played": played, "to_move": int(game.to_move), "values": column,
                           "best": max(mine.values())}
    if "make" in config.objectives:
        make: np.ndarray = np.full(32, -1, dtype=np.int8)
        for card, made in makes.items():
            make[card.index] = int(value_for_team(made, team, playing))
        row["make"] = make
    if config.worlds:
        view = analyse_view(game, worlds=config.worlds, seed=derive(config.seed, deal_id, 3,
                            len(game.played)), solver=solver, belief=config.belief)
        means = np.full(32, np.nan, dtype=np.float32)
        for card, stats in view.cards.items():
            means[card.index] = stats.mean
        row["sd_values"] = means
    if "score" in config.objectives:
        score: np.ndarray = np.full(32, NOT_LEGAL, dtype=np.int16)
        for card, value in solver.move_values(game, "score").items():
            score[card.index] = value_for_team(value, team, playing)
        row["score"] = score
    return row, first_optimal_card(mine)


def shard_columns(config: LabelConfig, shard: int, solver: Optional[Solver] = None, part: int = 0,
                  parts: int = 1) -> Dict[str, np.ndarray]:
    """The columns of one shard, as NumPy arrays in schema order, searched by `solver` (by
    default a new `Solver` for `config.rules`); with `parts`, those of the deals of its part
    number `part` (0..parts-1) alone, so that workers can share one shard."""
    solver = solver if solver is not None else Solver(config.rules)
    deals = config.shard_deals(shard)
    deals = deals[part * len(deals) // parts:(part + 1) * len(deals) // parts]
    rows = [row for deal_id in deals
            for row in deal_rows(config, deal_id, solver)]
    columns = {}
    for name, (dtype, width, _) in schema(config).items():
        shape = (len(rows), width) if width else (len(rows),)
        columns[name] = np.array([row[name] for row in rows], dtype=dtype).reshape(shape)
    return columns


def row_game(row: Any, rules: Optional[RulesLike] = None) -> Game:
    """The `Game` at a label row's position: its deal (every hand, hidden ones too), trump,
    leader, playing team (ledig's bidder, a table of three's dummy) and the cards played so
    far, under `rules`: the run's rules, as its manifest records them (`run_config(folder)
    .rules`), which a row does not repeat: None is a LabelsError saying so. `row` is one row
    indexed by column name: a dict, a pandas row.
    A row that the rules given cannot rebuild (its `bidder`, `dummy`, `trump` or legal cards
    say it was written under other rules) is a LabelsError naming the column.

    >>> from solver import Solver
    >>> row = deal_rows(LabelConfig(positions="trick-starts"), 0, Solver())[2]
    >>> game = row_game(row, "amsterdam")
    >>> len(game.played), int(game.to_move) == row["to_move"]
    (8, True)
    """
    return game_from_row(row, rules)
