"""Worlds a player cannot tell apart: deals that agree with its own hand and with everything
played so far, drawn uniformly.

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> game.replay("CT CJ C7 C9")
>>> worlds = sample_worlds(game, "S", 4, seed=1)
>>> all(w["S"] == game.deal["S"] for w in worlds)
True

What the play tells: a card is legal only if the hand that played it held no card that a duty
would have forced instead. Every duty is of the form "holding a card of this kind, you must
play one": so a play rules out, card by card, what its player can have held (a suit it did not
follow, trumps it did not play, a higher trump it did not overtrump with). Those exclusions are
exact, so the dealing below never has to reject a world: it counts the deals that respect them
and draws one uniformly.

What the player sees: his own hand, and at a table of three or two the other hands he sees
(`solver.model.players.seen_seats`): the chooser the dummy's from the start, a defender the
dummy's once it is open, a player of two both hands of his team. Those stay as dealt in every
world.
"""
from __future__ import annotations

from functools import lru_cache
import math
from math import comb
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

from .._kept import keep
from ..errors import SolverError, quote, shorten, whole_number
from .cards import ALL_CARDS, SEATS, Card, Seat, SeatLike, Suit
from .deal import Deal
from .game import Game, check_game, legal_cards
from .players import seen_seats
from .rules import Rules
from .streams import SplitMix64

# Unseen cards that the same seats may hold: (those seats, the cards).
Group = Tuple[Tuple[Seat, ...], Tuple[Card, ...]]
# How many unseen cards each other seat still needs, in the order of `_groups`' index.
Needs = Tuple[int, ...]
# count(i, needs): the ways to deal groups i.. so that each other seat gets its need.
Counter = Callable[[int, Needs], int]


def seen(game: Game, seat: Seat) -> FrozenSet[Seat]:
    """The hands the player of `seat` sees now, every card of them (`seen_seats`)."""
    return seen_seats(game.rules, seat, len(game.played), game.dummy)


def same_round(game: Game, deal: Deal) -> Game:
    """The round of `game` (trump, leader, playing team, rules, bidder, dummy) dealt `deal`,
    nothing played."""
    return Game(deal, game.trump, game.leader, game.playing, game.rules, bidder=game.bidder,
                dummy=game.dummy)


# The last exclusions worked out, by what they depend on: a bot's move asks for the same ones
# twice (its view of the round, then its worlds), and each is a legality check per card
# played and unseen card (a third of a PIMC move's time outside the searches at trick 5).
# Those of a few cards back are extended by the cards since: each seat asks again a trick on.
_EXCLUSIONS: Dict[Any, Dict[Seat, FrozenSet[Card]]] = {}
_LOOK_BACK = 8


def excluded_cards(game: Game, seat: Seat) -> Dict[Seat, FrozenSet[Card]]:
    """For every seat whose hand `seat` does not see, the unseen cards it cannot hold, given
    the play so far."""
    known = seen(game, seat)
    # The round, the hands `seat` sees as dealt and the play fix them (the unseen cards are
    # the rest).
    round_ = (game.rules, game.trump, game.leader, game.playing, game.bidder, game.dummy, seat,
              known, tuple(frozenset(game.deal[s]) for s in sorted(known)))
    played = tuple(game.played)
    found = _EXCLUSIONS.get((round_, played))
    if found is None:
        since, before = 0, None
        for back in range(1, min(len(played), _LOOK_BACK) + 1):
            before = _EXCLUSIONS.get((round_, played[:-back]))
            if before is not None:
                since = len(played) - back
                break
        found = keep(_EXCLUSIONS, (round_, played), _excluded_cards(game, known, since, before))
    return dict(found)


def _excluded_cards(game: Game, known: FrozenSet[Seat], since: int = 0,
                    before: Optional[Dict[Seat, FrozenSet[Card]]] = None
                    ) -> Dict[Seat, FrozenSet[Card]]:
    """The exclusions of the play: those `before` card `since` (None: from the start), and
    what each card from there tells. The unseen cards only shrink (a card played is seen), so
    a card excluded before still is, while it is unseen."""
    unseen = _unseen(game, known)
    still = set(unseen)
    excluded: Dict[Seat, Set[Card]] = {
        s: set() if before is None else set(before[s] & still) for s in Seat if s not in known}
    held = {s: set(game.deal[s]) for s in Seat}     # each hand as it was at each card
    players = _players(game)
    for index, (card, player) in enumerate(zip(game.played, players)):
        if index >= since:
            start = index - index % 4       # the trick's lead
            trick, leader = list(game.played[start:index]), players[start]
            allowed, _ = legal_cards(held[player], trick, player, leader, game.trump,
                                     game.rules)
            if card not in allowed:     # a revoke (placed): no world agrees with it
                same_round(game, game.deal).replay(game.played)     # IllegalPlayError
                raise AssertionError(f"{card} is refused here, but not by the replay")
            if player in excluded:
                excluded[player] |= still & _ruled_out(card, tuple(trick), player, leader,
                                                        game.trump, game.rules)
        held[player].discard(card)
    return {s: frozenset(cards) for s, cards in excluded.items()}


@lru_cache(maxsize=4096)
def _ruled_out(card: Card, trick: Tuple[Card, ...], player: Seat, leader: Seat,
               trump: Optional[Suit], rules: Rules) -> FrozenSet[Card]:
    """The cards that `player`, playing `card` onto `trick`, shows he did not hold: those a
    duty would have made him play instead. It depends on the trick alone, so the views of
    every seat of a round share it (an arena asks for each card's three times)."""
    return frozenset(other for other in ALL_CARDS if other is not card and card not in
                     legal_cards([card, other], list(trick), player, leader, trump, rules)[0])


def _unseen(game: Game, known: FrozenSet[Seat]) -> List[Card]:
    return sorted(c for s in Seat if s not in known for c in game.hands[s])


def count_worlds(game: Game, seat: SeatLike) -> int:
    """How many deals `seat` cannot tell apart from the real one (the real one included)."""
    seat = Seat.parse(seat)
    groups, needs, index = _groups(game, seat)
    return _counter(groups, index)(0, needs)


def _groups(game: Game, seat: Seat) -> Tuple[Tuple[Group, ...], Needs, Dict[Seat, int]]:
    """Unseen cards grouped by the seats that may hold them; each unseen seat's need (how many
    cards it holds now); and each unseen seat's place in the needs."""
    excluded = excluded_cards(game, seat)
    known = seen(game, seat)
    others = tuple(s for s in Seat if s not in known)
    by_owners: Dict[Tuple[Seat, ...], List[Card]] = {}
    for card in _unseen(game, known):
        owners = tuple(s for s in others if card not in excluded[s])
        by_owners.setdefault(owners, []).append(card)
    groups = tuple(sorted((owners, tuple(cards)) for owners, cards in by_owners.items()))
    needs = tuple(len(game.hands[s]) for s in others)
    return groups, needs, {s: i for i, s in enumerate(others)}


def _counter(groups: Tuple[Group, ...], index: Dict[Seat, int]) -> Counter:
    """count(i, needs): the ways to deal groups i.. so that each other seat gets its need."""
    @lru_cache(maxsize=None)
    def count(i: int, needs: Tuple[int, ...]) -> int:
        if i == len(groups):
            return 1 if not any(needs) else 0
        return sum(ways * count(i + 1, rest) for ways, _, rest in _splits(groups[i], needs, index))
    return count


def _splits(group: Group, needs: Needs, index: Dict[Seat, int]
            ) -> Iterator[Tuple[int, List[int], Needs]]:
    """Every way to share one group among its possible owners: (ways, shares, needs left)."""
    owners, cards = group
    slots = [index[s] for s in owners]

    def share(k: int, at: int, left: List[int], taken: List[int]) -> Iterator[List[int]]:
        if at == len(slots) - 1:
            if k <= left[slots[at]]:
                yield taken + [k]
            return
        for x in range(min(k, left[slots[at]]) + 1):
            yield from share(k - x, at + 1, left, taken + [x])

    for shares in share(len(cards), 0, list(needs), []) if slots else []:
        rest = list(needs)
        ways, k = 1, len(cards)
        for slot, x in zip(slots, shares):
            rest[slot] -= x
            ways *= comb(k, x)
            k -= x
        yield ways, shares, tuple(rest)


# The most worlds any analysis samples, as the command line allows: far more than an average
# needs, and few enough that a mistyped count is an error, not a run that never ends.
MOST_WORLDS = 100_000
# How the analyses may weigh these worlds (solver.analysis.beliefs): all alike, or by how
# likely the other players' plays were in each. Named here, below the analyses, so that the
# command line and the labels' options can check a name without loading the play model.
BELIEFS = ("uniform", "play")
# Worlds drawn uniformly for each one picked by weight: enough that the picks follow the
# weights, few enough to weigh them all.
CANDIDATES = 8


def sample_worlds(game: Game, seat: SeatLike, n: int, seed: int = 0,
                  weights: Optional[Callable[[Deal], float]] = None) -> List[Deal]:
    """`n` deals drawn uniformly from those `seat` cannot tell apart from the real one.

    In each, `seat` holds its real hand (and every other hand its player sees, at a table of
    three or two: `solver.model.players.seen_seats`), every played card was dealt to the seat
    that played it, the other seats hold the right number of cards, and the recorded play is
    legal.
    The result depends only on `seed`. `weights`, a function of a world returning a weight
    (>= 0), turns the draw into one in proportion to it (for what the bidding told, say):
    CANDIDATES * n (8n) uniform worlds are drawn and n of them picked by weight.
    """
    check_game(game)
    seat = Seat.parse(seat)
    n = whole_number("the number of worlds", n, 0, MOST_WORLDS)
    seed = whole_number("the seed", seed)
    rng = SplitMix64(seed)
    draws = n if weights is None else CANDIDATES * n
    groups, needs, index = _groups(game, seat)
    count = _counter(groups, index)
    if count(0, needs) == 0:   # pragma: no cover - a legal game always has its real deal
        raise SolverError("no deal agrees with this play")
    draw = _drawer(game, seat, groups, needs, index, count)
    worlds = [draw(rng) for _ in range(draws)]
    if weights is None:
        return worlds
    if not callable(weights):
        raise SolverError(f"weights must be a function of a world (a Deal) returning its weight, "
                          f"got {quote(weights)}")
    return _pick_by_weight(worlds, [_weight(weights, w) for w in worlds], n, rng)


def _drawer(game: Game, seat: Seat, groups: Tuple[Group, ...], needs: Needs,
            index: Dict[Seat, int], count: Counter) -> Callable[[SplitMix64], Deal]:
    """A function that draws one world with `rng`. What every world shares is worked out
    once: the seat that played each played card, the hands `seat` sees, and the ways to share
    each group among its owners (per needs left); a world is then dealt as card indices,
    which these steps make a deal, so it is not validated again (Deal._dealt): 5x cheaper a
    world than building each world's Deal from cards."""
    fixed: List[List[int]] = [[] for _ in Seat]
    for card, player in zip(game.played, _players(game)):   # who played what is known
        fixed[player].append(card.index)
    for known in seen(game, seat):
        fixed[known].extend(card.index for card in game.hands[known])
    owners = [[int(s) for s in group[0]] for group in groups]
    piles = [[card.index for card in group[1]] for group in groups]
    ways_of: Dict[Tuple[int, Needs], List[Tuple[int, List[int], Needs]]] = {}

    def choices(i: int, left: Needs) -> List[Tuple[int, List[int], Needs]]:
        """Each way to share group i with `left` needed: (the completions it leaves, the
        shares, the needs after it), in _splits' order."""
        found = ways_of.get((i, left))
        if found is None:
            found = ways_of[(i, left)] = [(ways * count(i + 1, rest), shares, rest)
                                          for ways, shares, rest in _splits(groups[i], left,
                                                                            index)]
        return found

    def draw(rng: SplitMix64) -> Deal:
        hands = [list(hand) for hand in fixed]
        left = needs
        for i, pile in enumerate(piles):
            target = rng.below(count(i, left))     # a uniform choice among all completions
            for weight, shares, rest in choices(i, left):
                if target < weight:
                    break
                target -= weight
            cards = list(pile)
            for j in range(len(cards) - 1, 0, -1):  # shuffle, then deal the shares in order
                k = rng.below(j + 1)
                cards[j], cards[k] = cards[k], cards[j]
            start = 0
            for owner, x in zip(owners[i], shares):
                hands[owner].extend(cards[start:start + x])
                start += x
            left = rest
        return Deal._dealt(hands)

    return draw


def _players(game: Game) -> List[Seat]:
    """The seat that played each card of `game.played`."""
    seats = []
    for trick in game.tricks:
        seats += [trick.seat_of(i) for i in range(4)]
    leader = game.trick_leader
    seats += [SEATS[(leader + i) % 4] for i in range(len(game.current_trick))]
    return seats


def _weight(weights: Callable[[Deal], float], world: Deal) -> float:
    """The weight `weights` gives `world`: a finite number of at least 0, or a SolverError
    naming the world."""
    try:
        weight = weights(world)
    except Exception as err:
        raise SolverError(f"weights raised {type(err).__name__} for world "
                          f"{world.to_pbn()}: {shorten(str(err))}") from err
    number: Optional[float] = None
    if not isinstance(weight, (bool, str, bytes)):
        try:
            number = float(weight)
        except (TypeError, ValueError, OverflowError):
            pass
    if number is None or not math.isfinite(number) or number < 0:
        raise SolverError(f"weights must give each world a finite number of at least 0; "
                          f"world {world.to_pbn()} got {quote(weight)}")
    return number


def _pick_by_weight(worlds: Sequence[Deal], weights: List[float], n: int,
                    rng: SplitMix64) -> List[Deal]:
    if any(w < 0 for w in weights) or sum(weights) <= 0:
        raise SolverError("weights must be >= 0 and not all 0")
    total = sum(weights)
    if not math.isfinite(total):
        raise SolverError(f"weights add up to more than a float holds ({total}): give smaller "
                          f"weights")
    picked = []
    for _ in range(n):
        target = rng.next() / 2**64 * total
        for world, weight in zip(worlds, weights):
            target -= weight
            if target < 0:
                break
        picked.append(world)
    return picked
