"""The seeded stream of rounds: round i of seed s, the same on every machine, for the labels
and the arena alike.

Round i of seed s is dealt `Deal.random(derive(s, i, 0))`; its trump, the leader of trick 1
and the playing team are drawn in that order from `SplitMix64(derive(s, i, 1))` (all three
are drawn even when some are fixed, so fixing one changes no other draw). Under contract
"ledig" the bidder comes from `derive(s, i, 4)`, and at a table of three the dummy from
`derive(s, i, 5)`: streams of their own, so that a trump round's draws stay as they were.
(Streams 2 and 3 are the labels': the play of a round, and its worlds.)

>>> stream = RoundStream(seed=3)
>>> stream.round(0) == RoundStream(seed=3).round(0)
True
>>> stream.round(0).game().to_move == stream.round(0).leader
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from .cards import Seat, Suit, Team
from .deal import Deal
from .game import Game
from .rules import Rules
from .streams import SplitMix64, derive


class Round(NamedTuple):
    """One round of the stream: the deal, trump (None in ledig without trump), the leader of
    trick 1, the playing team (in ledig the bidder's), ledig's bidder and a table of three's
    dummy (None when the round has none)."""

    deal: Deal
    trump: Optional[Suit]
    leader: Seat
    playing: Team
    bidder: Optional[Seat] = None
    dummy: Optional[Seat] = None

    def game(self, rules: Optional[Rules] = None) -> Game:
        """The round as a `Game` under `rules`, nothing played yet."""
        return Game(self.deal, self.trump, self.leader, self.playing, rules,
                    bidder=self.bidder, dummy=self.dummy)


@dataclass(frozen=True)
class RoundStream:
    """The rounds of seed `seed` under `rules`; `trump`, `leader`, `playing`, `bidder` and
    `dummy`, when given, are the same in every round instead of drawn (a fixed dummy fixes the
    playing team, as does ledig's bidder). The caller checks that the fixed ones agree with
    each other and with the rules (`LabelConfig` does)."""

    seed: int = 0
    rules: Rules = field(default_factory=Rules)
    trump: Optional[Suit] = None
    leader: Optional[Seat] = None
    playing: Optional[Team] = None
    bidder: Optional[Seat] = None
    dummy: Optional[Seat] = None

    def round(self, number: int) -> Round:
        """Round `number` of the stream."""
        deal = Deal.random(derive(self.seed, number, 0))
        rng = SplitMix64(derive(self.seed, number, 1))
        drawn, leader, playing = Suit(rng.below(4)), Seat(rng.below(4)), Team(rng.below(2))
        trump: Optional[Suit] = self.trump if self.trump is not None else drawn
        bidder = self.ledig_bidder(number)
        if bidder is not None:
            playing = bidder.team
            if self.rules.ledig_trump == "none":
                trump = None
        elif self.dummy is not None:
            playing = self.dummy.team       # a fixed dummy fixes the playing team
        if self.playing is not None:
            playing = self.playing
        return Round(deal, trump, self.leader if self.leader is not None else leader, playing,
                     bidder, self._dummy(number, playing))

    def ledig_bidder(self, number: int) -> Optional[Seat]:
        """Ledig's bidder in round `number`: fixed, or drawn from a stream of its own; None in
        a trump round."""
        if self.rules.contract != "ledig":
            return None
        if self.bidder is not None:
            return self.bidder
        rng = SplitMix64(derive(self.seed, number, 4))
        if self.dummy is not None:      # a fixed dummy fixes the playing team: the bidder's
            return self.dummy.team.seats[rng.below(2)]
        return Seat(rng.below(4))

    def _dummy(self, number: int, playing: Team) -> Optional[Seat]:
        """At a table of three, the dummy: fixed, or a seat of the playing team drawn from a
        stream of its own; None at other tables."""
        if self.rules.players != 3:
            return None
        if self.dummy is not None:
            return self.dummy
        return playing.seats[SplitMix64(derive(self.seed, number, 5)).below(2)]
