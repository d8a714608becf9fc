"""Beliefs: the worlds a seat cannot tell apart, weighted by how likely the other players'
plays (and bids) were in each.

Every world `sample_worlds` draws agrees with everything the seat saw; a belief only says how
likely each of them is. `"uniform"` takes them all alike (the model's sampler). `"play"`
(`PlayBelief`) asks a play model how likely each card another player put on the table was,
given that player's hand in the world and what it had seen then:

    P(player plays c) = (1 - epsilon) * softmax(scores / temperature)[c] + epsilon / legal

over the cards it could legally play, `scores` the network's values of its cards for its team
(`solver.network`). A world's weight is the product of those probabilities over every card
played by a seat whose hand the seat does not see (and, where the round had draaikaart
bidding, of each such seat's calls under `BidModel`). The share epsilon keeps every
probability above 0, so a world the seat cannot rule out keeps a weight above 0: the support
stays exactly the worlds of `solver.model.worlds`.

>>> from solver import Deal, Game
>>> from solver.bots.policy import PolicyModel
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> game.replay("CT CJ C7 C9 HK")
>>> belief = PlayBelief(PolicyModel.initial(hidden=16, seed=1))
>>> worlds, weights = weighted_worlds(game, "S", 8, seed=1, belief=belief)
>>> len(worlds), round(float(weights.sum()), 9), bool((weights > 0).all())
(8, 1.0, True)
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import (Any, Dict, List, Optional, Protocol, Sequence, Tuple, Union,
                    runtime_checkable)

import numpy as np

from .. import encode
from ..errors import SolverError, choice, quote, whole_number
from ..model.bidding import Draaikaart
from ..model.cards import Card, Rank, Seat, SeatLike, Suit
from ..model.deal import Deal
from ..model.game import Game, check_game, legal_cards
from ..model.players import seen_seats
from ..model.streams import SplitMix64, derive
from ..model.worlds import (BELIEFS, CANDIDATES, MOST_WORLDS, same_round, seen,
                            sample_worlds as uniform_worlds)

# The play model's defaults for the shipped network (two layers of 512 units), fitted by the
# least log loss of 2,050 plays of arena rounds (benchmarks/bench_belief.py --fit-only;
# docs/benchmarks.md, "Beliefs"): the temperature in the network's units, and the uniform
# share that keeps every legal card possible. Another network needs its own fit.
TEMPERATURE = 0.3
EPSILON = 0.2


@runtime_checkable
class Scorer(Protocol):
    """A play model's network: `scores(x)` for observations `x` (rows, encode.SIZE) gives
    (rows, 32) values of each card for the team to move, higher better."""

    def scores(self, x: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class Belief(Protocol):
    """How likely each world is: `log_weights` gives one log weight a world (any offset:
    only their differences count), `name` says which belief it is in results."""

    name: str

    def log_weights(self, game: Game, seat: Seat, worlds: Sequence[Deal],
                    bidding: Optional[Draaikaart] = None) -> np.ndarray: ...


class UniformBelief:
    """Every world the seat cannot rule out is as likely as any other."""

    name = "uniform"

    def log_weights(self, game: Game, seat: Seat, worlds: Sequence[Deal],
                    bidding: Optional[Draaikaart] = None) -> np.ndarray:
        zeros: np.ndarray = np.zeros(len(worlds))
        return zeros


@dataclass(frozen=True)
class BidModel:
    """A draaikaart call read as evidence of a hand: a seat plays suit s with probability

        epsilon + (1 - 2 * epsilon) * sigmoid((strength - threshold) / scale)

    where strength is the trump points the hand holds in s (J 20, 9 14, A 11, 10 10, K 4,
    Q 3) plus 10 for each ace of another suit. A pass in round 1 is the other side of that;
    a pass in round 2 is passing every suit it could name; a seat that must choose names s in
    proportion to its probability. The numbers are a club player's rule of thumb (play with
    jack and nine and a little more), not fitted: no recorded biddings exist to fit them on.
    epsilon keeps every call possible with every hand.
    """

    threshold: float = 40.0
    scale: float = 8.0
    epsilon: float = 0.05

    def plays(self, hands: np.ndarray, suit: Suit) -> np.ndarray:
        """The probability that each hand of `hands` (rows of 32 card flags) plays `suit`."""
        strength = hands @ _bid_strength(suit)
        core = 1.0 / (1.0 + np.exp(-(strength - self.threshold) / self.scale))
        result: np.ndarray = self.epsilon + (1 - 2 * self.epsilon) * core
        return result

    def log_likelihood(self, bidding: Draaikaart, dealt: np.ndarray,
                       hidden: Sequence[Seat]) -> np.ndarray:
        """The log probability of the calls of the `hidden` seats, in each world of `dealt`
        (worlds, 4, 32: the hands as dealt)."""
        total: np.ndarray = np.zeros(dealt.shape[0])
        for number, (seat, suit) in enumerate(bidding.calls):
            if seat not in hidden:
                continue
            hands = dealt[:, seat, :]
            if number < 4:       # round 1: play the turned suit or pass
                p = self.plays(hands, bidding.turned)
                total += np.log(p if suit is not None else 1 - p)
                continue
            others = [s for s in Suit if s != bidding.turned]
            each = {s: self.plays(hands, s) for s in others}
            if suit is None:
                total += sum(np.log(1 - each[s]) for s in others)
            elif _must_choose(bidding, number, seat):
                total += np.log(each[suit] / sum(each.values()))
            else:
                total += np.log(each[suit])
        return total


def _must_choose(bidding: Draaikaart, number: int, seat: Seat) -> bool:
    """Whether call `number` of round 2 could not be a pass (as `Draaikaart.choices`)."""
    return number == 8 or (bidding.on_all_pass == "dealer_chooses" and seat == bidding.dealer)


_TRUMP_POINTS = {Rank.JACK: 20, Rank.NINE: 14, Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4,
                 Rank.QUEEN: 3}


def _bid_strength(suit: Suit) -> np.ndarray:
    """What each card adds to a hand's strength for playing `suit` (BidModel)."""
    weights: np.ndarray = np.zeros(32)
    for index in range(32):
        card = Card.from_index(index)
        if card.suit == suit:
            weights[index] = _TRUMP_POINTS.get(card.rank, 0)
        elif card.rank == Rank.ACE:
            weights[index] = 10
    return weights


class PlayBelief:
    """Worlds weighted by how likely the other players' plays were in each (see the module):
    `network` scores the cards (`Scorer`), `temperature` (> 0, in its units) and `epsilon`
    (0 < epsilon <= 1) shape the play model, `bids` reads draaikaart calls (None: the calls
    count for nothing). `candidates`: how many worlds `sample_worlds` weighs for each one it
    draws (more follow the weights more closely, and cost more)."""

    def __init__(self, network: Scorer, temperature: float = TEMPERATURE,
                 epsilon: float = EPSILON, bids: Optional[BidModel] = BidModel(),
                 name: str = "play", candidates: int = CANDIDATES) -> None:
        if not callable(getattr(network, "scores", None)):
            raise SolverError(f"a play belief needs a network with a scores(x) method "
                              f"(solver.network.default_network()), got {quote(network)}")
        self.network = network
        self.temperature = _positive("temperature", temperature)
        self.epsilon = _positive("epsilon", epsilon)
        if self.epsilon > 1:
            raise SolverError(f"epsilon is a share of the play model, from above 0 to 1, got "
                              f"{quote(epsilon)}")
        if bids is not None and not isinstance(bids, BidModel):
            raise SolverError(f"bids must be a BidModel or None, got {quote(bids)}")
        self.bids = bids
        self.name = name
        self.candidates = whole_number("candidates", candidates, 1, 1000)

    def with_candidates(self, candidates: int) -> "PlayBelief":
        """This belief, drawing from `candidates` weighed worlds for each one."""
        return PlayBelief(self.network, self.temperature, self.epsilon, self.bids, self.name,
                          candidates)

    def log_weights(self, game: Game, seat: Seat, worlds: Sequence[Deal],
                    bidding: Optional[Draaikaart] = None) -> np.ndarray:
        dealt = _dealt(worlds)
        hidden = [s for s in Seat if s not in seen(game, seat)]
        total = self._play_log_likelihood(game, hidden, dealt)
        if bidding is not None and self.bids is not None:
            total += self.bids.log_likelihood(bidding, dealt, hidden)
        return total

    def card_log_probabilities(self, scores: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """log P(each card) of the play model, for rows of network `scores` and `legal`
        masks (rows, 32); -inf where a card is not legal."""
        scaled = np.where(legal, scores.astype(np.float64) / self.temperature, -np.inf)
        top = scaled.max(axis=1, keepdims=True)
        soft = np.exp(scaled - top)
        soft /= soft.sum(axis=1, keepdims=True)
        mixed = (1 - self.epsilon) * soft + self.epsilon / legal.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore"):
            result: np.ndarray = np.where(legal, np.log(mixed), -np.inf)
        return result

    def _play_log_likelihood(self, game: Game, hidden: List[Seat],
                             dealt: np.ndarray) -> np.ndarray:
        """Sum over the cards the `hidden` seats played of log P(that card), per world. The
        observations of a play differ between worlds only in the player's hand (and the hands
        it saw): they are built for all worlds at once, one row per different hand."""
        count = dealt.shape[0]
        rows: List[np.ndarray] = []
        masks: List[np.ndarray] = []
        chosen: List[np.ndarray] = []
        row_of: List[np.ndarray] = []       # per step: each world's row, -1 for none
        made = 0
        for step in _steps(game, hidden):
            held = dealt[:, step.player, :] & ~step.gone          # the player's hand then
            shown = [dealt[:, other, :] & ~step.gone for _, other in step.shown]
            keys = np.packbits(np.concatenate([held] + shown, axis=1), axis=1)
            _, first, inverse = np.unique(keys.view(f"V{keys.shape[1]}").reshape(-1),
                                          return_index=True, return_inverse=True)
            hands = held[first]
            legal = hands & ~((hands.astype(np.int32) @ step.excludes.T) > 0)
            choosing = legal.sum(axis=1) > 1    # one legal card: the play tells nothing
            x = np.repeat(step.base[None, :], int(choosing.sum()), axis=0)
            x[:, _HAND] = hands[choosing]
            for (relative, _), cards in zip(step.shown, shown):
                x[:, _SEEN.start + 32 * relative:_SEEN.start + 32 * (relative + 1)] = \
                    cards[first][choosing]
            numbers = np.full(len(first), -1)
            numbers[choosing] = made + np.arange(int(choosing.sum()))
            made += int(choosing.sum())
            rows.append(x)
            masks.append(legal[choosing])
            chosen.append(np.full(int(choosing.sum()), step.card))
            row_of.append(numbers[inverse.reshape(-1)])
        total: np.ndarray = np.zeros(count)
        if not made:
            return total
        scores = np.asarray(self.network.scores(np.concatenate(rows)), dtype=np.float64)
        if scores.shape != (made, 32) or not np.isfinite(scores).all():
            raise SolverError(f"the play model's network must give {made} rows of 32 finite "
                              f"scores here, got an array of shape {scores.shape}")
        logp = self.card_log_probabilities(scores, np.concatenate(masks))
        picked = np.append(logp[np.arange(made), np.concatenate(chosen)], 0.0)
        for numbers in row_of:
            total += picked[numbers]      # -1: the appended 0, a play without a choice
        return total

    def __repr__(self) -> str:
        return (f"PlayBelief({self.name!r}, temperature={self.temperature:g}, "
                f"epsilon={self.epsilon:g})")


_HAND = encode.layout()["hand"].slice
_SEEN = encode.layout()["seen"].slice


@dataclass
class _Step:
    """One card played by a hidden seat: who, which card, what it saw (`base`: the hand and
    the hands it saw are filled in per world), the cards gone from every hand by then, and
    which cards exclude which under the duties of that moment (`_excludes`)."""

    player: Seat
    card: int
    base: np.ndarray
    gone: np.ndarray
    shown: List[Tuple[int, Seat]]     # (relative row, seat) of the hands it saw
    excludes: np.ndarray


# Steps by what makes them: the round's public settings and the cards played before (the
# observation holds no bids: they are weighed apart, by BidModel). A bot asks about the same
# past plays at every move of a round: they are made once.
_STEP_CACHE: "OrderedDict[Tuple[Any, ...], _Step]" = OrderedDict()
_STEP_CACHE_SIZE = 4096
_STEP_LOCK = threading.Lock()       # the board's threads may weigh worlds at once


def _steps(game: Game, hidden: List[Seat]) -> List[_Step]:
    """Every card of `game.played` put down by a seat of `hidden`, with what it saw."""
    replay: Optional[Game] = None
    steps = []
    public = (game.rules, game.trump, game.leader, game.playing, game.bidder, game.dummy)
    for number, card in enumerate(game.played):
        key = public + (tuple(game.played[:number + 1]),)
        with _STEP_LOCK:
            step = _STEP_CACHE.get(key)
            if step is not None:
                _STEP_CACHE.move_to_end(key)
        if step is None:
            if replay is None:
                replay = same_round(game, game.deal)
                for before in game.played[:number]:
                    replay.place(before)     # as recorded: a record may hold a verzaking
            step = _make_step(game, replay, card)
            with _STEP_LOCK:
                _STEP_CACHE[key] = step
                if len(_STEP_CACHE) > _STEP_CACHE_SIZE:
                    _STEP_CACHE.popitem(last=False)
        if step.player in hidden:
            steps.append(step)
        if replay is not None:
            replay.place(card)
    return steps


def _make_step(game: Game, replay: Game, card: Card) -> _Step:
    player = replay.to_move
    gone: np.ndarray = np.zeros(32, dtype=bool)
    gone[[c.index for c in replay.played]] = True
    shown = [((other - player) % 4, other)
             for other in sorted(seen_seats(game.rules, player, len(replay.played), game.dummy))
             if other != player]
    return _Step(player, card.index, encode.observation(replay, player), gone, shown,
                 _excludes(replay, gone))


def _excludes(replay: Game, gone: np.ndarray) -> np.ndarray:
    """[c, o] = 1 where holding card o forbids playing card c now (both still in play). Every
    duty is "holding a card of this kind, play one" (`solver.model.worlds`), so a card is
    legal in a hand exactly when no card of that hand excludes it: the rules' own
    `legal_cards`, asked of each pair."""
    excludes: np.ndarray = np.zeros((32, 32), dtype=np.int32)
    if not replay.current_trick:
        return excludes                 # a lead: every card is legal
    live = [Card.from_index(int(i)) for i in np.flatnonzero(~gone)]
    trick, seat = list(replay.current_trick), replay.to_move
    for i, c in enumerate(live):
        for o in live[i + 1:]:
            allowed, _ = legal_cards([c, o], trick, seat, replay.trick_leader, replay.trump,
                                     replay.rules)
            if c not in allowed:
                excludes[c.index, o.index] = 1
            if o not in allowed:
                excludes[o.index, c.index] = 1
    return excludes


def _dealt(worlds: Sequence[Deal]) -> np.ndarray:
    """The worlds' hands as dealt: (worlds, 4, 32) card flags."""
    dealt: np.ndarray = np.zeros((len(worlds), 4, 32), dtype=bool)
    cards = [c.suit * 8 + c.rank for world in worlds for hand in world.hands for c in hand]
    dealt[np.repeat(np.arange(len(worlds)), 32), np.tile(np.repeat(np.arange(4), 8),
                                                         len(worlds)), cards] = True
    return dealt


def _positive(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not 0 < value < math.inf:
        raise SolverError(f"{name} must be a number above 0, got {quote(value)}")
    return float(value)


BeliefLike = Union[str, Belief]
_PLAY: Optional[PlayBelief] = None


def belief_of(belief: BeliefLike) -> Belief:
    """The belief `belief` names ("uniform", "play": the package's network with the fitted
    temperature and share), or `belief` itself when it is one (an object with `name` and
    `log_weights`)."""
    global _PLAY
    if isinstance(belief, str):
        choice("belief", belief, BELIEFS)
        if belief == "uniform":
            return UniformBelief()
        if _PLAY is None:
            from ..network import default_network     # NumPy weights, read on first use
            _PLAY = PlayBelief(default_network())
        return _PLAY
    if not isinstance(belief, Belief):
        raise SolverError(f"a belief must be one of {', '.join(BELIEFS)} or an object with a "
                          f"name and log_weights (PlayBelief), got {quote(belief)}")
    return belief


def belief_name(belief: BeliefLike) -> str:
    """The name results show for `belief`."""
    return belief if isinstance(belief, str) else belief_of(belief).name


def weighted_worlds(game: Game, seat: SeatLike, n: int, seed: int = 0,
                    belief: BeliefLike = "uniform", bidding: Optional[Draaikaart] = None
                    ) -> Tuple[List[Deal], np.ndarray]:
    """`n` worlds drawn uniformly from those `seat` cannot tell apart (`sample_worlds` with
    `seed`), and each one's weight under `belief` (float64, adding up to 1, each above 0):
    the posterior over those draws. `bidding`, the round's draaikaart calls when it had them,
    weighs the worlds too."""
    check_game(game)
    seat = Seat.parse(seat)
    worlds = uniform_worlds(game, seat, n, seed)
    return worlds, _normalised(belief_of(belief).log_weights(game, seat, worlds,
                                                             _check_bidding(bidding)), n)


def _normalised(log_weights: np.ndarray, n: int) -> np.ndarray:
    """Weights adding up to 1 from log weights, in log space until the end so nothing
    underflows."""
    logs: np.ndarray = np.asarray(log_weights, dtype=np.float64)
    if n == 0 and logs.shape == (0,):
        return logs
    if logs.shape != (n,) or not np.isfinite(logs).all():
        raise SolverError(f"a belief must give each of the {n} worlds a finite log weight, got "
                          f"{quote(logs.tolist(), 60)}")
    weights: np.ndarray = np.exp(logs - logs.max())
    result: np.ndarray = weights / weights.sum()
    return result


def _check_bidding(bidding: Optional[Draaikaart]) -> Optional[Draaikaart]:
    if bidding is not None and not isinstance(bidding, Draaikaart):
        raise SolverError(f"bidding must be the round's Draaikaart (its calls) or None, got "
                          f"{quote(bidding)}")
    return bidding


def sample_worlds(game: Game, seat: SeatLike, n: int, seed: int = 0,
                  weights: Any = None, belief: BeliefLike = "uniform",
                  bidding: Optional[Draaikaart] = None) -> List[Deal]:
    """`n` worlds `seat` cannot tell apart from the real one, drawn under `belief`:
    "uniform" (the default) is the model's sampler (`solver.model.worlds.sample_worlds`,
    with its `weights`); any other draws CANDIDATES * n worlds uniformly (the belief's
    `candidates` * n, when it has them), weighs them by `belief` (`weighted_worlds`) and
    picks `n` of them in proportion to their weights (`systematic_picks`: a world may come
    twice). Depends only on `seed`."""
    name = belief_name(belief)
    if name == "uniform" and isinstance(belief, str):
        return uniform_worlds(game, seat, n, seed, weights)
    if weights is not None:
        raise SolverError("give weights or a belief, not both: a belief weighs the worlds "
                          "itself")
    factor = getattr(belief_of(belief), "candidates", CANDIDATES)
    n = whole_number("the number of worlds", n, 0, MOST_WORLDS // factor)
    if n == 0:
        check_game(game)
        Seat.parse(seat)
        return []
    worlds, probabilities = weighted_worlds(game, seat, factor * n, seed, belief, bidding)
    return [worlds[i] for i in systematic_picks(probabilities, n, seed)]


def systematic_picks(weights: np.ndarray, n: int, seed: int) -> List[int]:
    """`n` indices drawn in proportion to `weights` (adding up to 1) by systematic resampling:
    one uniform offset u from `seed`, then the points (u + i) / n on the weights laid end to
    end. Each index comes within one of n times its weight, so a world of weight 1/n or more is
    always kept: less noise than n independent draws."""
    u = SplitMix64(derive(seed, 1)).next() / 2**64
    edges = np.cumsum(weights)
    edges[-1] = 1.0                         # the sum's rounding never leaves a point past it
    points: np.ndarray = (u + np.arange(n)) / n
    picks: np.ndarray = np.asarray(np.searchsorted(edges, points, side="right"))
    return [int(i) for i in picks]


__all__ = ["BELIEFS", "Belief", "BidModel", "PlayBelief", "Scorer", "UniformBelief",
           "belief_name", "belief_of", "sample_worlds", "weighted_worlds"]
