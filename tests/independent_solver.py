"""A second, independent solver for the corpus: plain Python alpha-beta with a memo.

It shares no search code with the engine: it keeps its own small state of `Card` sets, asks
`game.py` for the legal cards, the trick winner and the roem of each trick, and scores the end
with `scoring.py`. It is slow (seconds a full deal) and tests/test_corpus.py checks it equal to
the no-pruning `reference.minimax` on endgames.
"""
from solver.model.cards import Card, Seat, Team
from solver.model.game import Game, legal_cards, stuk_hand_roem, trick_roem, winning_index
from solver.model.scoring import Tally, counted_hand_roem, objective_value, pit_bonus, point_factor

INF = 10 ** 6


class _Round:
    """The position: remaining hands, the trick on the table, and what each team took."""

    def __init__(self, game: Game, metric: str):
        self.game = game
        self.metric = metric                    # "points", "cards" or "score"
        self.trump, self.rules, self.playing = game.trump, game.rules, game.playing
        self.hands = [set(h) for h in game.hands]
        self.trick = list(game.current_trick)
        self.leader = game.trick_leader
        self.taken = {t: [0, 0, 0] for t in Team}   # card points, table roem, tricks
        for trick in game.tricks:
            took = self.taken[trick.winner.team]
            took[0] += trick.points
            took[1] += trick.roem
            took[2] += 1
        self.factor = point_factor(self.rules, self.trump)
        self.dealt = {t: [game.deal[s] for s in t.seats] for t in Team}

    def tallies(self):
        won = {t: self.taken[t][2] for t in Team}
        hand = counted_hand_roem(self.dealt, self.trump, self.rules, won)
        return {t: Tally(self.taken[t][0], self.taken[t][1] + hand[t],
                         pit_bonus(t, won, self.playing, self.rules)) for t in Team}

    def value(self) -> int:
        """The metric now; at the end of the round, its final value."""
        if self.metric == "cards":
            return self.taken[self.playing][0]
        return objective_value(self.metric, self.tallies(), self.playing, self.trump, self.rules)

    def key(self):
        key = (tuple(frozenset(h) for h in self.hands), self.leader,
               self.taken[Team.NS][2] > 0, self.taken[Team.EW][2] > 0)
        if self.metric == "score":    # not additive: what was taken is part of the position
            key += tuple(tuple(v) for v in self.taken.values())
        return key

    def to_move(self) -> Seat:
        return Seat((self.leader + len(self.trick)) % 4)

    def moves(self):
        seat = self.to_move()
        cards, _ = legal_cards(self.hands[seat], self.trick, seat, self.leader, self.trump,
                               self.rules)
        return sorted(cards, key=lambda c: self._promise(seat, c), reverse=True)

    def _promise(self, seat: Seat, card: Card) -> float:
        """A guess of how good `card` is, to try the best first (it changes no value)."""
        trump, points = self.trump, card.points(self.trump)
        if not self.trick:
            others = set().union(*(self.hands[s] for s in Seat if s != seat))
            top = not any(c.suit == card.suit and c.strength(trump) > card.strength(trump)
                          for c in others)
            return 100 + points if top else -points
        cards = self.trick + [card]
        winner = Seat((self.leader + winning_index(cards, trump)) % 4)
        if winner == seat:
            return 50 - card.strength(trump)
        if winner.team == seat.team:
            return 30 + points
        return -points

    def play(self, card):
        seat = self.to_move()
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < 4:
            return None
        winner = Seat((self.leader + winning_index(self.trick, self.trump)) % 4)
        points = sum(c.points(self.trump) for c in self.trick) + (10 if not self.hands[0] else 0)
        roem = trick_roem(self.trick, self.trump, self.rules)
        if self.game.stuk_holder is not None:
            roem += stuk_hand_roem(self.trick, self.hands[self.game.stuk_holder], self.trump)
        took = self.taken[winner.team]
        undo = (list(self.trick), self.leader, winner.team, points * self.factor, roem)
        took[0] += points * self.factor
        took[1] += roem
        took[2] += 1
        self.trick, self.leader = [], winner
        return undo

    def unplay(self, card, undo):
        if undo is not None:
            trick, leader, team, points, roem = undo
            took = self.taken[team]
            took[0] -= points
            took[1] -= roem
            took[2] -= 1
            self.trick, self.leader = trick, leader
        self.trick.pop()
        self.hands[self.to_move()].add(card)


def _search(pos: _Round, alpha: int, beta: int, memo: dict) -> int:
    """Fail-soft alpha-beta on the metric's final value; memo at trick boundaries holds
    bounds on what is still to come (or, for the score, on the final value)."""
    if not pos.hands[pos.to_move()]:
        return pos.value()
    at_boundary = not pos.trick
    if at_boundary:
        base = 0 if pos.metric == "score" else pos.value()
        key = pos.key()
        lower, upper, first = memo.get(key, (-INF, INF, None))
        lower, upper = lower + base, upper + base     # the memo holds what is still to come
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
    moves = pos.moves()
    if at_boundary and first in moves:
        moves.remove(first)
        moves.insert(0, first)
    maximising = pos.to_move().team == pos.playing
    start_alpha, start_beta = alpha, beta
    best, chosen = None, None
    for card in moves:
        undo = pos.play(card)
        value = _search(pos, alpha, beta, memo)
        pos.unplay(card, undo)
        if best is None or (value > best if maximising else value < best):
            best, chosen = value, card
        if maximising:
            alpha = max(alpha, value)
        else:
            beta = min(beta, value)
        if alpha >= beta:
            break
    if at_boundary:
        lower, upper, _ = memo.get(key, (-INF, INF, None))
        if best <= start_alpha:
            upper = min(upper, best - base)
        elif best >= start_beta:
            lower = max(lower, best - base)
        else:
            lower = upper = best - base
        memo[key] = (lower, upper, chosen)
    return best


def solve_independently(game: Game, objective: str):
    """The value of `game`'s position for "points", "score" or "make"."""
    if objective == "make":
        rules = game.rules
        if rules.nat == "82" and rules.multiplier == 1:
            cards = _search(_Round(game, "cards"), -INF, INF, {})
            return cards >= 82 * point_factor(rules, game.trump)
        return _search(_Round(game, "points"), -INF, INF, {}) > 0
    return _search(_Round(game, objective), -INF, INF, {})
