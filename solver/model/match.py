"""A match of Klaverjas, a boom: 16 rounds, and the running score of each team after each one.

A match is kept as a JSON Lines file of its rounds' game records, in the order they were
played (`GameRecord.load_many`, `GameRecord.dump_many`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from .cards import ByTeam, Team
from ..errors import RecordError, quote
from .record import GameRecord

# A boom: each of the four players deals four times.
ROUNDS_IN_A_BOOM = 16


@dataclass(frozen=True, repr=False)
class Match:
    """The rounds of a match (a boom) so far, in order, each scored from its play.

    Every round must be finished: all 32 cards played, or a revoke (verzaken), which ends the
    round and is scored by the rules' `revoke_penalty`. A record that stops earlier is refused,
    naming the round: a match counts only what a round's end decides. A match holds at most 16
    rounds (`ROUNDS_IN_A_BOOM`); fewer is a match still being played.

    >>> record = GameRecord.load("examples/game.json")
    >>> match = Match([record, record])
    >>> match.totals.to_dict(), match.is_complete
    ({'NS': 86, 'EW': 358}, False)
    """

    rounds: Tuple[GameRecord, ...]
    scores: Tuple[ByTeam, ...] = field(init=False, compare=False)   # each round's, in order

    def __init__(self, rounds: Iterable[GameRecord]) -> None:
        try:
            rounds = tuple(rounds)
        except TypeError:
            raise RecordError(f"a match is a sequence of game records, got {quote(rounds)}") \
                from None
        if len(rounds) > ROUNDS_IN_A_BOOM:
            raise RecordError(f"a match (boom) has {ROUNDS_IN_A_BOOM} rounds; got "
                              f"{len(rounds)}")
        scores = []
        for number, record in enumerate(rounds, start=1):
            if not isinstance(record, GameRecord):
                raise RecordError(f"round {number} of the match is not a GameRecord: "
                                  f"{quote(record)}")
            score = record.scores()
            if score is None:
                raise RecordError(
                    f"round {number} of the match stops after {len(record.played)} cards: a "
                    f"match counts finished rounds (all 32 cards played, or a revoke)")
            scores.append(score)
        object.__setattr__(self, "rounds", rounds)
        object.__setattr__(self, "scores", tuple(scores))

    @classmethod
    def load(cls, path: Union[str, Path], notation: str = "en") -> "Match":
        """A match from a JSON Lines file of its rounds' records, in order.

        >>> Match.load("examples/boom.jsonl").is_complete
        True
        """
        return cls(GameRecord.load_many(path, notation))

    def dump(self, path: Union[str, Path]) -> None:
        """Write the rounds to a JSON Lines file that `load` reads back."""
        GameRecord.dump_many(self.rounds, path)

    @property
    def running(self) -> List[ByTeam]:
        """Each team's total after each round."""
        totals = ByTeam({Team.NS: 0, Team.EW: 0})
        running = []
        for score in self.scores:
            totals = ByTeam({team: totals[team] + score[team] for team in Team})
            running.append(totals)
        return running

    @property
    def totals(self) -> ByTeam:
        """Each team's total so far (0 for both before the first round)."""
        running = self.running
        return running[-1] if running else ByTeam({Team.NS: 0, Team.EW: 0})

    @property
    def is_complete(self) -> bool:
        """Whether all 16 rounds of the boom are played."""
        return len(self.rounds) == ROUNDS_IN_A_BOOM

    @property
    def winner(self) -> Optional[Team]:
        """The team with the higher total once the boom is complete; None before, or on a
        tie."""
        totals = self.totals
        if not self.is_complete or totals[Team.NS] == totals[Team.EW]:
            return None
        return max(Team, key=lambda team: totals[team])

    def to_dict(self) -> Dict[str, Any]:
        """The rounds' records, their scores and the running totals, keyed by team letters."""
        return {"rounds": [r.to_dict() for r in self.rounds],
                "scores": [s.to_dict() for s in self.scores],
                "running": [t.to_dict() for t in self.running]}

    @classmethod
    def from_dict(cls, data: Any) -> "Match":
        """A match from `to_dict()`; the scores are computed again from the rounds' play."""
        if not isinstance(data, dict) or not isinstance(data.get("rounds"), list):
            raise RecordError(f"a match is a JSON object with a list of 'rounds', got "
                              f"{quote(data)}")
        return cls(GameRecord.from_dict(r) for r in data["rounds"])

    def __str__(self) -> str:
        lines = ["round  dealer  playing  trump    NS    EW    total NS  total EW"]
        for number, (record, score, total) in enumerate(
                zip(self.rounds, self.scores, self.running), start=1):
            dealer = record.dealer.name if record.dealer is not None else "-"
            lines.append(f"{number:>5}  {dealer:>6}  {record.playing.name:>7}  "
                         f"{record.trump.symbol if record.trump is not None else '-':>5}  {score[Team.NS]:>4}  {score[Team.EW]:>4}"
                         f"    {total[Team.NS]:>8}  {total[Team.EW]:>8}")
        totals = self.totals
        played = f"{len(self.rounds)} of {ROUNDS_IN_A_BOOM} rounds"
        outcome = (f"{self.winner.name} wins" if self.winner is not None else
                   "a tie" if self.is_complete else "unfinished")
        lines.append(f"After {played}: NS {totals[Team.NS]}, EW {totals[Team.EW]} ({outcome}).")
        return "\n".join(lines)

    def __repr__(self) -> str:
        totals = self.totals
        return (f"Match({len(self.rounds)} rounds, NS {totals[Team.NS]}, "
                f"EW {totals[Team.EW]})")
