"""A second, independent ledig solver: plain Python, for whole deals where the no-pruning
reference is out of reach.

It shares no search code with the engine. It asks `game.py` for the legal cards and the
winner of each trick and answers yes/no questions, "can the defenders make the bidder take
at least k more tricks?", with a memo at trick boundaries; the value is the largest such k.
tests/test_ledig.py checks it equal to `reference.minimax` on endgames.
"""
from solver.model.cards import Seat
from solver.model.game import Game, legal_cards, winning_index


class _Ledig:
    def __init__(self, game: Game):
        self.trump, self.rules, self.bidder = game.trump, game.rules, game.bidder
        self.defenders = game.playing.other
        self.memo = {}

    def forces(self, hands, trick, leader, k):
        """Whether the defenders can make the bidder take at least `k` of the tricks still to
        be finished, from `hands` with `trick` on the table led by `leader`."""
        if k <= 0:
            return True
        left = sum(len(h) for h in hands) + len(trick)
        if k > left // 4:
            return False
        key = None
        if not trick:
            key = (tuple(frozenset(h) for h in hands), leader, k)
            if key in self.memo:
                return self.memo[key]
        seat = Seat((leader + len(trick)) % 4)
        cards, _ = legal_cards(hands[seat], trick, seat, leader, self.trump, self.rules)
        defending = seat.team == self.defenders
        result = not defending
        for card in cards:
            hands[seat].remove(card)
            if len(trick) == 3:
                cards_in = trick + [card]
                winner = Seat((leader + winning_index(cards_in, self.trump)) % 4)
                found = self.forces(hands, [], winner, k - (winner == self.bidder))
            else:
                found = self.forces(hands, trick + [card], leader, k)
            hands[seat].add(card)
            if found == defending:
                result = found
                break
        if key is not None:
            self.memo[key] = result
        return result


def ledig_points(game: Game) -> int:
    """The ledig points value of `game`'s position: minus the tricks the bidder takes, the
    bidder's team keeping it as high as it can and the defenders as low."""
    solver = _Ledig(game)
    hands = [set(h) for h in game.hands]
    k = 0
    while solver.forces(hands, list(game.current_trick), game.trick_leader, k + 1):
        k += 1
    return -(game.bidder_tricks() + k)
