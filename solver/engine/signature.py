"""The engine's node signature: total nodes and a hash over fixed positions, per objective.

A change that alters the search (its order, bounds or table) alters the nodes; one that only
makes a node cheaper keeps them. So every commit that touches the engine quotes the
signature, the way chess engines quote their `bench`, and two builds of the same source
(portable or not, any compiler) must print the same one:

    python -m solver.engine.signature [--deals 60]

Each position is searched by a fresh `Solver` with the default table, so that a position's
nodes do not depend on the ones before it.

>>> signature(2)["points"].nodes > 0
True
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from ..model.cards import Seat, Suit, Team
from ..model.deal import Deal
from ..model.game import Game
from ..model.rules import Rules
from ..model.streams import SplitMix64
from .search import Solver

DEFAULT_DEALS = 60


def positions(count: int) -> Iterator[Tuple[Deal, Suit, Seat, Team]]:
    """(deal, trump, leader, playing) of the fixed rounds 0..count-1, the same everywhere."""
    for i in range(count):
        rng = SplitMix64(1_000_003 * i + 17)
        yield Deal.random(i), Suit(rng.below(4)), Seat(rng.below(4)), Team(rng.below(2))


MID_CARDS = 12     # the cards played before the "mid" objective's position


def mid_round(game: Game, index: int) -> Game:
    """`game` after MID_CARDS cards played at random, the same everywhere for round `index`."""
    rng = SplitMix64(7_000_003 * index + 5)
    for _ in range(MID_CARDS):
        cards = game.legal_cards()
        game.play(cards[rng.below(len(cards))])
    return game


# What each objective searches, as its value written out: one search call each.
_SEARCHES: Dict[str, Callable[[Solver, Game], object]] = {
    "points": lambda solver, game: solver.value(game, "points"),
    "make": lambda solver, game: solver.value(game, "make"),
    "score": lambda solver, game: solver.value(game, "score"),
    "moves": lambda solver, game: sorted(
        (str(card), value) for card, value in solver.move_values(game).items()),
    "solve": lambda solver, game: (lambda result: (result.value, [str(c) for c in result.line]))(
        solver.solve(game.deal, game.trump, game.leader, game.playing, game.rules)),
    # Every card's value after MID_CARDS cards: the search after trick 1 (mid_round).
    "mid": lambda solver, game: sorted(
        (str(card), value) for card, value in solver.move_values(game).items()),
}


@dataclass(frozen=True)
class Signature:
    """Total nodes of one objective over the positions, and a hash of every position's nodes
    and value (a changed value changes the hash even where the nodes stay)."""
    nodes: int
    hash: str


def signature(deals: int = DEFAULT_DEALS, objectives: Optional[List[str]] = None
              ) -> Dict[str, Signature]:
    """{objective: Signature} over the first `deals` fixed positions, default rules (for
    "mid", each after MID_CARDS cards played at random)."""
    result = {}
    for objective in objectives or list(_SEARCHES):
        search = _SEARCHES[objective]
        total, digest = 0, hashlib.sha256()
        for index, (deal, trump, leader, playing) in enumerate(positions(deals)):
            solver = Solver()
            game = Game(deal, trump, leader, playing, Rules())
            if objective == "mid":
                game = mid_round(game, index)
            before = solver.engine.nodes
            value = search(solver, game)
            nodes = solver.engine.nodes - before
            total += nodes
            digest.update(f"{nodes} {value}\n".encode())
        result[objective] = Signature(total, digest.hexdigest()[:12])
    return result


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                        help=f"fixed positions per objective (default {DEFAULT_DEALS})")
    args = parser.parse_args(argv)
    print(f"node signature, {args.deals} deals:")
    for objective, sig in signature(args.deals).items():
        print(f"  {objective:<6} {sig.nodes:>10} {sig.hash}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
