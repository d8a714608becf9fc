"""Suits, ranks, cards, seats and teams, and the notation people write them in.

A card's `index` is `suit * 8 + rank`, with ranks in natural order 7 8 9 T J Q K A, so that
runs for roem are consecutive indices. Only `_engine` turns indices into bit sets.
"""
from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Callable, Iterable, List, Tuple, Union

from ..errors import NotationError, quote, whole_number


class _Named:
    """str() and format() give the letter people write (Python 3.11 made IntEnum print its
    number): `str(Seat.S) == "S"`, `f"{Suit.H}" == "H"`."""

    if TYPE_CHECKING:   # each enum defines it
        @property
        def letter(self) -> str: ...

    def __str__(self) -> str:
        return self.letter

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


class Suit(_Named, IntEnum):
    """The four suits, in the order C D H S (klaveren, ruiten, harten, schoppen)."""

    C = 0
    D = 1
    H = 2
    S = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: Union[str, "Suit"]) -> "Suit":
        """`Suit.parse("h")`, `Suit.parse("♥")` and `Suit.parse(Suit.H)` all give `Suit.H`."""
        if isinstance(text, Suit):
            return text
        if isinstance(text, str):
            key = text.strip().upper()
            if key in _SUIT_NAMES:
                return _SUIT_NAMES[key]
        raise NotationError(f"unknown suit {quote(text)}: use one of C, D, H, S (or ♣ ♦ ♥ ♠)")


_SUIT_NAMES = {s.name: s for s in Suit}
_SUIT_NAMES.update({s.symbol: s for s in Suit})
_SUIT_NAMES.update({"♧": Suit.C, "♢": Suit.D, "♡": Suit.H, "♤": Suit.S})


class Rank(_Named, IntEnum):
    """Ranks in natural order (the order of runs): 7 8 9 T J Q K A."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    @property
    def letter(self) -> str:
        return "789TJQKA"[self]

    @classmethod
    def parse(cls, text: Union[str, "Rank"]) -> "Rank":
        """`"T"` and `"10"` both name the ten; letters are case-insensitive."""
        if isinstance(text, Rank):
            return text
        if isinstance(text, str):
            key = text.strip().upper()
            if key == "10":
                key = "T"
            if len(key) == 1 and key in "789TJQKA":
                return Rank("789TJQKA".index(key))
        raise NotationError(f"unknown rank {quote(text)}: use one of 7 8 9 T (or 10) J Q K A")


# Trick-taking strength and card points, indexed by Rank (docs/rules.md, "Which card wins").
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)   # J > 9 > A > T > K > Q > 8 > 7
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)   # A > T > K > Q > J > 9 > 8 > 7
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
# Whoever takes trick 8 gets these points on top of its cards.
LAST_TRICK_BONUS = 10
# The card points in a round with the last trick, before double suits: 162, whatever the trump
# (one trump suit and three plain ones).
CARD_POINTS_TOTAL = sum(TRUMP_POINTS) + 3 * sum(PLAIN_POINTS) + LAST_TRICK_BONUS


class Card:
    """One of the 32 cards. Parses from "HA", "H10", "HT", "h10", "♥A"; prints as "HA", "HT"."""

    __slots__ = ("suit", "rank")

    suit: Suit
    rank: Rank

    def __new__(cls, suit: SuitLike, rank: RankLike) -> "Card":
        return _CARDS[Suit.parse(suit) * 8 + Rank.parse(rank)]

    @classmethod
    def _make(cls, index: int) -> "Card":
        card = object.__new__(cls)
        object.__setattr__(card, "suit", Suit(index // 8))
        object.__setattr__(card, "rank", Rank(index % 8))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> Tuple[Callable[[int], "Card"], Tuple[int]]:
        return (Card.from_index, (self.index,))

    @property
    def index(self) -> int:
        """0..31: `suit * 8 + rank`."""
        return self.suit * 8 + self.rank

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card with this index, 0..31 (`suit * 8 + rank`)."""
        return _CARDS[whole_number("card index", index, 0, 31, NotationError)]

    @classmethod
    def parse(cls, text: Union[str, "Card"]) -> "Card":
        """Parse one card: suit then rank, e.g. `Card.parse("H10")`."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise NotationError(f"not a card: {quote(text)} (write suit then rank, e.g. HA or H10)")
        key = text.strip()
        if len(key) < 2:
            raise NotationError(f"not a card: {quote(text)} (write suit then rank, e.g. HA or H10)")
        try:
            return Card(Suit.parse(key[0]), Rank.parse(key[1:]))
        except NotationError as err:
            raise NotationError(f"not a card: {quote(text)}: {err}") from None

    def points(self, trump: Suit) -> int:
        """Card points with `trump` as the trump suit (not doubled)."""
        return (TRUMP_POINTS if self.suit == trump else PLAIN_POINTS)[self.rank]

    def strength(self, trump: Suit) -> int:
        """Higher beats lower within a suit; every trump is above every plain card."""
        if self.suit == trump:
            return 8 + TRUMP_STRENGTH[self.rank]
        return PLAIN_STRENGTH[self.rank]

    def to_str(self, symbols: bool = False) -> str:
        """"HA", or "♥A" with `symbols`."""
        return (self.suit.symbol if symbols else self.suit.letter) + self.rank.letter

    def __str__(self) -> str:
        return self.to_str()

    def __repr__(self) -> str:
        return f"Card.parse({self.to_str()!r})"

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other


_CARDS = tuple(Card._make(i) for i in range(32))
ALL_CARDS = _CARDS


class Seat(_Named, IntEnum):
    """Seats in playing order, clockwise. The seat left of N is E."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def letter(self) -> str:
        return self.name

    @property
    def left(self) -> "Seat":
        """The next seat clockwise: the one who plays after this seat."""
        return Seat((self + 1) % 4)

    @property
    def partner(self) -> "Seat":
        """The seat across the table, on the same team."""
        return Seat((self + 2) % 4)

    @property
    def team(self) -> "Team":
        """NS for N and S, EW for E and W."""
        return Team(self % 2)

    @classmethod
    def parse(cls, text: Union[str, "Seat"]) -> "Seat":
        """`Seat.parse("n")` and `Seat.parse(Seat.N)` both give `Seat.N`."""
        if isinstance(text, Seat):
            return text
        if isinstance(text, str) and text.strip().upper() in ("N", "E", "S", "W"):
            return Seat("NESW".index(text.strip().upper()))
        raise NotationError(f"unknown seat {quote(text)}: use one of N, E, S, W")


class Team(_Named, IntEnum):
    """The two partnerships: NS (N and S) and EW (E and W)."""

    NS = 0
    EW = 1

    @property
    def letter(self) -> str:
        return self.name

    @property
    def seats(self) -> "tuple[Seat, Seat]":
        return (Seat(self), Seat(self + 2))

    @property
    def other(self) -> "Team":
        return Team(1 - self)

    @classmethod
    def parse(cls, text: Union[str, "Team"]) -> "Team":
        """"NS" or "SN", "EW" or "WE" (any case), or a Team."""
        if isinstance(text, Team):
            return text
        if isinstance(text, str):
            key = text.strip().upper()
            if key in ("NS", "SN"):
                return Team.NS
            if key in ("EW", "WE"):
                return Team.EW
        raise NotationError(f"unknown team {quote(text)}: use NS or EW")


# What the functions that take a suit, rank, card, seat or team accept: the enum (or Card), or
# the notation people write ("H", "T", "HA", "N", "NS"). Plain ints are not accepted: 2 is not
# a suit anyone writes.
SuitLike = Union[Suit, str]
RankLike = Union[Rank, str]
CardLike = Union[Card, str]
SeatLike = Union[Seat, str]
TeamLike = Union[Team, str]
# Several cards: a sequence of the above, or one space-separated string ("HA HT H7").
CardsLike = Union[str, Iterable[CardLike]]


def parse_cards(cards: CardsLike) -> List[Card]:
    """A list of cards from strings, `Card`s, or one space-separated string.

    >>> parse_cards("HA h10 ♠7")
    [Card.parse('HA'), Card.parse('HT'), Card.parse('S7')]
    """
    if isinstance(cards, str):
        cards = cards.split()
    try:
        return [Card.parse(c) for c in cards]
    except TypeError:
        raise NotationError(f"cards must be a list or a space-separated string, got "
                            f"{quote(cards)}") from None
