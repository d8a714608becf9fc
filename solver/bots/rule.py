"""RuleBot: the heuristics a club player uses, written down one rule at a time, in the order
they are tried. Deterministic: ties go to the lowest card in card order.

Leading a trick:
1. As the playing team, lead trumps while the opponents may hold some: the highest trump
   when it is the highest one left (it cannot be beaten), else the lowest (keep the high
   trumps; partner may win with a higher one).
2. Cash a sure winner: the highest card left in a side suit (an ace, a ten once the ace is
   gone ...), the most points first.
3. Otherwise lead low: the card with the fewest points, lowest first, side suits before
   trumps.

Following:
4. Partner is winning and the trick is safe (we play last, or no unseen card can beat
   partner's card): let partner have it and add points (a ten or an ace under partner's
   winning card), the most points of a side suit; only trumps left: the lowest.
5. The opponents are winning and a card of ours beats them: trump their trick or beat it,
   with the cheapest card that wins for sure (the lowest, keeping the high trumps); when no
   winner is sure, with the lowest winner if we play last or the trick is worth 10 or more.
6. Otherwise discard low: the fewest points, lowest first, side suits before trumps.

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> RuleBot().act(game, "E") == RuleBot().act(game, "E")
True
"""
from __future__ import annotations

from typing import List, Set, Tuple

from ..model.cards import ALL_CARDS, Card, Seat
from ..model.game import Game, winning_index
from .bot import Bot


class RuleBot(Bot):
    """The club player's rules of thumb (see the module's docstring); no search, no chance."""

    name = "rule"

    def choose(self, game: Game, seat: Seat) -> Card:
        legal = game.legal_cards()
        if len(legal) == 1:
            return legal[0]
        table = _Table(game, seat)
        if not game.current_trick:
            return table.lead(legal)
        return table.follow(legal)


class _Table:
    """What `seat` knows when it plays: its hand, the trick, the cards not yet seen."""

    def __init__(self, game: Game, seat: Seat) -> None:
        self.game, self.seat, self.trump = game, seat, game.trump
        self.hand = sorted(game.hands[seat])
        # Unseen: neither in our hand nor played; the other three seats hold them somewhere.
        self.unseen: Set[Card] = set(ALL_CARDS) - set(self.hand) - set(game.played)

    def unseen_trumps(self) -> List[Card]:
        return [c for c in self.unseen if c.suit == self.trump]

    def is_top(self, card: Card) -> bool:
        """No unseen card of its suit is stronger."""
        return all(c.strength(self.trump) < card.strength(self.trump)
                   for c in self.unseen if c.suit == card.suit)

    def low_key(self, card: Card) -> Tuple[bool, int, int, int]:
        # Fewest points, then weakest, side suits before trumps, then card order.
        return (card.suit == self.trump, card.points(self.trump), card.strength(self.trump),
                card.index)

    # -- leading ---------------------------------------------------------------------------

    def lead(self, legal: List[Card]) -> Card:
        trumps = [c for c in legal if c.suit == self.trump]
        if self.seat.team == self.game.playing and trumps and self.unseen_trumps():
            top = max(trumps, key=lambda c: c.strength(self.trump))
            return top if self.is_top(top) else min(trumps, key=lambda c: c.strength(self.trump))
        winners = [c for c in legal if c.suit != self.trump and self.is_top(c)]
        if winners:
            return max(winners, key=lambda c: (c.points(self.trump), -c.index))
        return min(legal, key=self.low_key)

    # -- following -------------------------------------------------------------------------

    def follow(self, legal: List[Card]) -> Card:
        trick = self.game.current_trick
        leader = self.game.trick_leader
        best = trick[winning_index(trick, self.trump)]
        winner = Seat((leader + winning_index(trick, self.trump)) % 4)
        last = len(trick) == 3
        if winner == self.seat.partner and (last or self.holds(best)):
            keep = [c for c in legal if not self.beats(c, best)] or legal
            side = [c for c in keep if c.suit != self.trump]
            if side:
                return max(side, key=lambda c: (c.points(self.trump), -c.strength(self.trump),
                                                -c.index))
            return min(keep, key=self.low_key)
        if winner != self.seat.partner:
            beating = sorted((c for c in legal if self.beats(c, best)),
                             key=lambda c: (c.strength(self.trump) + 8 * (c.suit == self.trump),
                                            c.index))
            sure = [c for c in beating if last or self.holds(c)]
            if sure:
                return sure[0]
            worth = sum(c.points(self.trump) for c in trick)
            if beating and (last or worth >= 10):
                return beating[0]
        return min(legal, key=self.low_key)

    def beats(self, card: Card, best: Card) -> bool:
        """Whether `card` played now would win over `best`, the card winning the trick."""
        if card.suit == best.suit:
            return card.strength(self.trump) > best.strength(self.trump)
        return card.suit == self.trump

    def holds(self, card: Card) -> bool:
        """Whether `card`, winning now, stays winning whatever unseen card comes after it:
        no unseen card of its suit is stronger and, for a side suit, no unseen trump could
        ruff it."""
        led = self.game.current_trick[0].suit if self.game.current_trick else card.suit
        if not self.is_top(card):
            return False
        if card.suit == self.trump:
            return True
        return card.suit == led and not self.unseen_trumps()

