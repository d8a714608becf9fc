"""What a recorded round scores: each team's score, and each player's at the table."""
from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Tuple

from .cards import ByTeam
from ..errors import IllegalPlayError
from .players import Player, table_players
from .scoring import revoke_scores

if TYPE_CHECKING:
    from .record import GameRecord


def record_scores(record: "GameRecord") -> Optional[ByTeam]:
    """Each team's score for the round the play shows: the final scores after the 32nd card,
    or after a revoke (verzaken, which ends the round) the revoke scores; None while the
    round is unfinished."""
    game = record.game()
    for card in record.played:
        try:
            game.check(card)
        except IllegalPlayError:
            return revoke_scores(game.to_move.team, game.roem_so_far(), record.rules)
        game.play(card)
    if not game.is_over:
        return None
    return game.final_scores()


def record_player_scores(record: "GameRecord") -> Optional[List[Tuple[Player, int]]]:
    """Each player at the table with his team's score (`record_scores`); None while the round
    is unfinished."""
    scores = record_scores(record)
    if scores is None:
        return None
    return [(p, scores[p.team])
            for p in table_players(record.rules, record.playing, record.dummy, record.players)]
