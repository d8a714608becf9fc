"""What one seat can see, as a NumPy array: the input of a bot that cannot see the other hands.

`observation(game, seat)` is a float32 array of `SIZE` zeros and ones (one-hot blocks), laid out
as `layout()` describes. Seats in it are relative to the observer ("self", "left": the seat
that plays after it, "partner", "right"), so one model serves all four seats. It holds only
what `seat` saw: its own hand, every card played (by whom and in which trick), the cards on the
table, trump, the playing team, the contract (and ledig's bidder), whose turn it is, the bids
where there were any, and at a table of three or two the other hands the player sees (the
dummy's, the partner's). Two deals that the seat cannot tell apart give the same array.

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), trump="H", leader="E", playing="NS")
>>> x = observation(game, game.to_move)
>>> x.shape == (SIZE,), x.dtype, int(x[layout()["hand"].slice].sum())
(True, dtype('float32'), 8)
>>> unpack(x)["played_by"].shape
(4, 32)

The same array is the `information_state_tensor` of the OpenSpiel game (`solver.openspiel`).
`from_row(row)` gives it for a label row (`solver.labels`), at the row's position.
"""
from __future__ import annotations

import math
from typing import Any, Dict, Iterable, NamedTuple, Optional, Tuple

import numpy as np

from .errors import LabelsError, SolverError
from .model.cards import Card, Seat, SeatLike, Suit
from .model.game import Game, check_game
from .model.label_row import ROW_COLUMNS, game_from_row, present_columns
from .model.players import seen_seats
from .model.rules import RulesLike, check_rules

# The observer, then the others in playing order after it.
RELATIVE_SEATS = ("self", "left", "partner", "right")


class Block(NamedTuple):
    """One named part of the observation: where it lies, its shape, and what a 1 means."""

    name: str
    start: int
    shape: Tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def slice(self) -> slice:
        """`x[block.slice]` is the block, flat; `.reshape(block.shape)` gives its rows."""
        return slice(self.start, self.start + self.size)


# (name, shape, meaning) in array order. Card columns are card indices (suit * 8 + rank,
# `Card.index`); seat rows are RELATIVE_SEATS.
_BLOCKS: Tuple[Tuple[str, Tuple[int, ...], str], ...] = (
    ("hand", (32,), "the cards the observer holds now"),
    ("played_by", (4, 32), "[seat, card]: the card was played by that seat (relative)"),
    ("played_in_trick", (8, 32), "[trick - 1, card]: the card was played in that trick"),
    ("current_trick", (4, 32), "[seat, card]: the card lies on the table in the trick being "
                               "played, put there by that seat (relative)"),
    ("trump", (4,), "the trump suit, C D H S (all zero while the bidding goes on, and in a "
                    "ledig round without trump)"),
    ("playing", (2,), "[0]: the observer's team plays, [1]: the other team plays (all zero "
                      "while the bidding goes on)"),
    ("leader", (4,), "the seat (relative) that leads trick 1"),
    ("to_move", (4,), "the seat (relative) whose turn it is (all zero when the round is over)"),
    ("position", (4,), "cards already on the table in the trick being played: 0, 1, 2 or 3"),
    ("trick", (8,), "the trick being played, 1..8 (all zero when the round is over)"),
    ("turned", (4,), "draaikaart: the suit of the turned card (all zero without bidding)"),
    ("bids", (4, 2), "[seat, 0]: that seat (relative) passed; [seat, 1]: it chose to play"),
    ("contract", (2,), "[0]: a trump round, [1]: ledig, a bidder undertakes to take no trick "
                       "(all zero while the bidding goes on)"),
    ("bidder", (4,), "ledig: the seat (relative) that bid it (all zero in a trump round)"),
    ("dummy", (4,), "a table of three: the seat (relative) of the dummy, the silent partner "
                    "(all zero at other tables)"),
    ("seen", (4, 32), "[seat, card]: the card is in that seat's hand (relative) and the "
                      "observer's player sees it: at a table of three the chooser sees the "
                      "dummy's hand (and, observing for the dummy, his own) from the start, a "
                      "defender the dummy's once the rule dummy_open lets him; at a table of two "
                      "the partner's; the observer's own row stays zero (its cards are in hand)"),
)


def _build_layout() -> Dict[str, Block]:
    blocks, start = {}, 0
    for name, shape, meaning in _BLOCKS:
        block = Block(name, start, shape, meaning)
        blocks[name] = block
        start += block.size
    return blocks


_LAYOUT = _build_layout()
SIZE = sum(block.size for block in _LAYOUT.values())
# Each block's name, slice and shape, worked out once: every observation unpacks its array.
_UNPACKED = tuple((block.name, block.slice, block.shape) for block in _LAYOUT.values())


def layout() -> Dict[str, Block]:
    """The blocks of the observation by name, in array order, each with its slice, shape and
    meaning: what a bot author reads to know which input is which.

    >>> [(b.name, b.slice.start, b.shape) for b in layout().values()][:3]
    [('hand', 0, (32,)), ('played_by', 32, (4, 32)), ('played_in_trick', 160, (8, 32))]
    """
    return dict(_LAYOUT)


def unpack(x: Any) -> Dict[str, np.ndarray]:
    """The blocks of an observation (or of a batch of them, one per row), each in its shape."""
    x = np.asarray(x)
    if x.shape[-1:] != (SIZE,):
        raise SolverError(f"an observation has {SIZE} numbers, got an array of shape {x.shape}")
    lead = x.shape[:-1]
    return {name: x[..., where].reshape(lead + shape) for name, where, shape in _UNPACKED}


# A bid of the draaikaart procedure: the seat, and whether it chose to play (else it passed).
Bid = Tuple[SeatLike, bool]


def observation(game: Game, seat: SeatLike, turned: Optional[Suit] = None,
                bids: Iterable[Bid] = ()) -> np.ndarray:
    """What `seat` sees of `game`, as a float32 array of SIZE (see `layout()`); `turned` and
    `bids` are the draaikaart bidding that set the trump, when there was one."""
    game = check_game(game)
    seat = Seat.parse(seat)
    x: np.ndarray = np.zeros(SIZE, dtype=np.float32)
    view = unpack(x)    # views into x: writing them fills x
    for card in game.hands[seat]:
        view["hand"][card.index] = 1
    for trick in game.tricks:
        for i, card in enumerate(trick.cards):
            view["played_by"][_relative(trick.seat_of(i), seat), card.index] = 1
            view["played_in_trick"][trick.number - 1, card.index] = 1
    leader = game.trick_leader
    for i, card in enumerate(game.current_trick):
        player = Seat((leader + i) % 4)
        view["played_by"][_relative(player, seat), card.index] = 1
        view["played_in_trick"][game.trick_number - 1, card.index] = 1
        view["current_trick"][_relative(player, seat), card.index] = 1
    if game.trump is not None:      # ledig under ledig_trump="none" has none
        view["trump"][game.trump] = 1
    view["playing"][0 if game.playing == seat.team else 1] = 1
    view["contract"][0 if game.rules.contract == "trump" else 1] = 1
    if game.bidder is not None:
        view["bidder"][_relative(game.bidder, seat)] = 1
    if game.dummy is not None:
        view["dummy"][_relative(game.dummy, seat)] = 1
    for other in seen_seats(game.rules, seat, len(game.played), game.dummy) - {seat}:
        for card in game.hands[other]:
            view["seen"][_relative(other, seat), card.index] = 1
    _fill_seats(view, seat, game.leader, None if game.is_over else game.to_move, turned, bids)
    if not game.is_over:
        view["position"][len(game.current_trick)] = 1
        view["trick"][game.trick_number - 1] = 1
    return x


def bidding_observation(hand: Iterable[Card], seat: SeatLike, leader: Optional[SeatLike],
                        to_move: Optional[SeatLike], turned: Optional[Suit] = None,
                        bids: Iterable[Bid] = ()) -> np.ndarray:
    """What `seat` sees before trump is set: its `hand`, who leads trick 1 (None while the
    cards are dealt), whose turn it is to bid (None when nobody's), the turned suit and the
    bids so far; the same layout as `observation`, with the play blocks all zero."""
    seat = Seat.parse(seat)
    x: np.ndarray = np.zeros(SIZE, dtype=np.float32)
    view = unpack(x)
    for card in hand:
        view["hand"][Card.parse(card).index] = 1
    _fill_seats(view, seat, None if leader is None else Seat.parse(leader),
                None if to_move is None else Seat.parse(to_move), turned, bids)
    return x


def _fill_seats(view: Dict[str, np.ndarray], seat: Seat, leader: Optional[Seat],
                to_move: Optional[Seat], turned: Optional[Suit], bids: Iterable[Bid]) -> None:
    if leader is not None:
        view["leader"][_relative(leader, seat)] = 1
    if to_move is not None:
        view["to_move"][_relative(to_move, seat)] = 1
    if turned is not None:
        view["turned"][Suit.parse(turned)] = 1
    for bidder, plays in bids:
        view["bids"][_relative(Seat.parse(bidder), seat), 1 if plays else 0] = 1


def _relative(other: Seat, seat: Seat) -> int:
    """0 for the observer itself, 1 for the seat after it, 2 its partner, 3 the seat before."""
    return (other - seat) % 4


def from_row(row: Any, rules: Optional[RulesLike] = None) -> np.ndarray:
    """The observation of the seat to move at a label row's position (`solver.labels`): the
    row's columns `deal`, `trump`, `leader`, `playing`, `played` (and `bidder` under ledig,
    `dummy` at a table of three) give the round (`solver.labels.row_game`), under `rules`,
    the rules of the run that wrote the row (`solver.labels.run_config(folder).rules`): a row
    does not repeat them, and None is a LabelsError saying so. A row that needs other rules is
    a LabelsError naming the column that says so.

    >>> import numpy as np
    >>> from solver import Deal
    >>> deal = Deal.random(1)
    >>> row = {"deal": np.array([deal.holder(c) for c in sorted(sum(deal.hands, ()))]),
    ...        "trump": 2, "leader": 1, "playing": 0, "played": np.full(32, -1)}
    >>> int(from_row(row, "amsterdam")[layout()["hand"].slice].sum())
    8
    """
    game = game_from_row(row, rules)
    return observation(game, game.to_move)


def from_columns(columns: Any, rules: Optional[RulesLike] = None) -> np.ndarray:
    """`from_row` for every row of a labels table (the columns `solver.labels.load` gives, or
    a pandas DataFrame), under the rules of its run: shape (rows, SIZE). The columns that
    `load` gives carry the run's rules, so `rules` may be left out for them; rules given that
    are not the run's are a LabelsError."""
    carried = getattr(columns, "rules", None)
    if rules is None:
        rules = carried
    elif carried is not None and check_rules(rules) != carried:
        raise LabelsError(f"these label columns were written under {carried!r}, not the rules "
                          f"given, {check_rules(rules)!r}: leave rules out to read them under "
                          f"their run's")
    names = present_columns(columns)
    try:
        by_name = {name: list(columns[name]) for name in names}
    except (KeyError, TypeError) as err:
        raise LabelsError(f"a labels table needs the columns {', '.join(ROW_COLUMNS)}; "
                          f"cannot read column {err}") from None
    count = len(by_name["played"])
    out: np.ndarray = np.zeros((count, SIZE), dtype=np.float32)
    for i in range(count):
        out[i] = from_row({name: by_name[name][i] for name in names}, rules)
    return out
