"""Suits, ranks, cards, seats and teams, and the notation people write them in.

A card's `index` is `suit * 8 + rank`, with ranks in natural order 7 8 9 T J Q K A, so that
runs for roem are consecutive indices. Only the engine (`engine/packing.py`) turns indices into
bit sets.

Cards are written suit first, in one of two notations: "en" (the default: suits C D H S,
ranks 7 8 9 T J Q K A, ten also 10) or "nl", the Dutch one (suits K R H S for klaveren,
ruiten, harten, schoppen; ranks 7 8 9 10 B V H A for boer, vrouw, heer, aas). In Dutch H is
both hearts and the king (heer): suit first, "HH" is the king of hearts.

>>> Card.parse("HH", notation="nl"), Card.parse("KB", notation="nl").to_str(notation="nl")
(Card.parse('HK'), 'KB')
"""
from __future__ import annotations

import operator
from enum import IntEnum
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional,
                    Tuple, Union)

from ..errors import NotationError, SolverError, choice, quote, whole_number

# The card notations: "en" (C D H S; 7 8 9 T J Q K A) and the Dutch "nl" (K R H S;
# 7 8 9 10 B V H A). Suit symbols (♣ ♦ ♥ ♠) read the same in both.
NOTATIONS = ("en", "nl")
_SUIT_LETTERS = {"en": ("C", "D", "H", "S"), "nl": ("K", "R", "H", "S")}
_RANK_LETTERS = {"en": ("7", "8", "9", "T", "J", "Q", "K", "A"),
                 "nl": ("7", "8", "9", "10", "B", "V", "H", "A")}


def check_notation(notation: Any) -> str:
    """`notation` when it is one of NOTATIONS ("en", "nl"); else a NotationError."""
    return choice("card notation", notation, NOTATIONS, NotationError)


def _as_number(value: Any) -> Optional[int]:
    """`value` as an int when it is an integer (NumPy's too) but not a bool; else None."""
    if isinstance(value, (bool, str)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


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

    def letter_in(self, notation: str = "en") -> str:
        """The suit's letter in a notation: `Suit.C.letter_in("nl") == "K"` (klaveren)."""
        return _SUIT_LETTERS[check_notation(notation)][self]

    @classmethod
    def parse(cls, text: Union[str, int, "Suit"], notation: str = "en") -> "Suit":
        """`Suit.parse("h")`, `Suit.parse("♥")`, `Suit.parse(2)` and `Suit.parse(Suit.H)` all
        give `Suit.H`; `Suit.parse("R", notation="nl")` gives `Suit.D` (ruiten)."""
        if isinstance(text, Suit):
            return text
        number = _as_number(text)
        if number is not None and 0 <= number <= 3:
            return Suit(number)
        letters = _SUIT_LETTERS[check_notation(notation)]
        if isinstance(text, str):
            key = text.strip().upper()
            if key in letters:
                return Suit(letters.index(key))
            if key in _SUIT_SYMBOLS:
                return _SUIT_SYMBOLS[key]
        names = " (klaveren, ruiten, harten, schoppen)" if notation == "nl" else ""
        raise NotationError(f"unknown suit {quote(text)}: use one of {', '.join(letters)}"
                            f"{names} (or ♣ ♦ ♥ ♠{', or 0..3' if number is not None else ''})")


_SUIT_SYMBOLS = {s.symbol: s for s in Suit}
_SUIT_SYMBOLS.update({"♧": Suit.C, "♢": Suit.D, "♡": Suit.H, "♤": Suit.S})


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

    def letter_in(self, notation: str = "en") -> str:
        """The rank as a notation writes it: `Rank.KING.letter_in("nl") == "H"` (heer)."""
        return _RANK_LETTERS[check_notation(notation)][self]

    @classmethod
    def parse(cls, text: Union[str, "Rank"], notation: str = "en") -> "Rank":
        """`"T"` and `"10"` both name the ten; letters are case-insensitive. In the Dutch
        notation ("nl") the ranks are 7 8 9 10 B V H A."""
        if isinstance(text, Rank):
            return text
        letters = _RANK_LETTERS[check_notation(notation)]
        if isinstance(text, str):
            key = text.strip().upper()
            if key in ("10", "T"):
                return Rank.TEN
            if key in letters:
                return Rank(letters.index(key))
        shown = "7 8 9 10 B V H A (boer, vrouw, heer, aas)" if notation == "nl" else \
            "7 8 9 T (or 10) J Q K A"
        raise NotationError(f"unknown rank {quote(text)}: use one of {shown}")


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

    __slots__ = ("suit", "rank", "index")

    suit: Suit
    rank: Rank
    index: int      # 0..31: `suit * 8 + rank`; kept, not computed: it is every Card's hash

    def __new__(cls, suit: SuitLike, rank: RankLike) -> "Card":
        return _CARDS[Suit.parse(suit) * 8 + Rank.parse(rank)]

    @classmethod
    def _make(cls, index: int) -> "Card":
        card = object.__new__(cls)
        object.__setattr__(card, "suit", Suit(index // 8))
        object.__setattr__(card, "rank", Rank(index % 8))
        object.__setattr__(card, "index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> Tuple[Callable[[int], "Card"], Tuple[int]]:
        return (Card.from_index, (self.index,))

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card with this index, 0..31 (`suit * 8 + rank`)."""
        return _CARDS[whole_number("card index", index, 0, 31, NotationError)]

    @classmethod
    def parse(cls, text: Union[str, "Card"], notation: str = "en") -> "Card":
        """Parse one card: suit then rank, e.g. `Card.parse("H10")`, or in the Dutch notation
        `Card.parse("HH", notation="nl")` (the king of hearts).

        >>> Card.parse("10H")
        Traceback (most recent call last):
        ...
        solver.errors.NotationError: not a card: '10H': cards are written suit first, e.g. H10
        """
        if isinstance(text, Card):
            return text
        check_notation(notation)
        example = "HA or H10" if notation == "en" else "HA, HH or H10"
        if not isinstance(text, str):
            raise NotationError(f"not a card: {quote(text)} (write suit then rank, e.g. {example})")
        key = text.strip()
        separator = _separator_in(key)
        if separator:
            raise NotationError(f"not a card: {quote(text)}: cards are separated by spaces, not "
                                f"{separator!r}")
        if len(key) < 2:
            raise NotationError(f"not a card: {quote(text)} (write suit then rank, e.g. {example})")
        try:
            return Card(Suit.parse(key[0], notation), Rank.parse(key[1:], notation))
        except NotationError as err:
            if _reads_as(key[-1] + key[:-1], notation):
                raise NotationError(f"not a card: {quote(text)}: cards are written suit first, "
                                    f"e.g. {key[-1].upper()}{key[:-1].upper()}") from None
            raise NotationError(f"not a card: {quote(text)}: {err}") from None

    def points(self, trump: Optional[Suit]) -> int:
        """Card points with `trump` as the trump suit (not doubled); None: no trump."""
        return (TRUMP_POINTS if self.suit == trump else PLAIN_POINTS)[self.rank]

    def strength(self, trump: Optional[Suit]) -> int:
        """Higher beats lower within a suit; every trump is above every plain card. With no
        trump (None, a ledig round) every suit ranks in the plain order."""
        if self.suit == trump:
            return 8 + TRUMP_STRENGTH[self.rank]
        return PLAIN_STRENGTH[self.rank]

    def to_str(self, symbols: bool = False, notation: str = "en") -> str:
        """"HA", or "♥A" with `symbols`; `notation="nl"` writes the Dutch ranks and suits
        ("HH" for the king of hearts, "♥H" with symbols).

        `symbols` is True or False: `to_str("nl")` would read as symbols, so it is refused,
        naming `notation=`."""
        if not isinstance(symbols, bool):
            raise SolverError(f"symbols must be True or False, got {quote(symbols)}"
                              + (f": give the notation by name, to_str(notation={symbols!r})"
                                 if symbols in NOTATIONS else ""))
        return ((self.suit.symbol if symbols else self.suit.letter_in(notation))
                + self.rank.letter_in(notation))

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

# What people put between cards instead of a space; named in the error.
_SEPARATORS = (",", ";", "/", "|")


def _separator_in(text: str) -> Optional[str]:
    return next((sep for sep in _SEPARATORS if sep in text), None)


def _reads_as(text: str, notation: str) -> bool:
    """Whether `text` is a card in `notation`."""
    try:
        Card(Suit.parse(text[0], notation), Rank.parse(text[1:], notation))
    except (NotationError, IndexError):
        return False
    return True


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
        return SEATS[(self + 1) % 4]

    @property
    def partner(self) -> "Seat":
        """The seat across the table, on the same team."""
        return SEATS[(self + 2) % 4]

    @property
    def team(self) -> "Team":
        """NS for N and S, EW for E and W."""
        return TEAMS[self % 2]

    @classmethod
    def parse(cls, text: Union[str, int, "Seat"]) -> "Seat":
        """`Seat.parse("n")`, `Seat.parse(0)` and `Seat.parse(Seat.N)` all give `Seat.N`."""
        if isinstance(text, Seat):
            return text
        number = _as_number(text)
        if number is not None and 0 <= number <= 3:
            return Seat(number)
        if isinstance(text, str) and text.strip().upper() in ("N", "E", "S", "W"):
            return Seat("NESW".index(text.strip().upper()))
        raise NotationError(f"unknown seat {quote(text)}: use one of N, E, S, W"
                            f"{', or 0..3' if number is not None else ''}")


class Team(_Named, IntEnum):
    """The two partnerships: NS (N and S) and EW (E and W)."""

    NS = 0
    EW = 1

    @property
    def letter(self) -> str:
        return self.name

    @property
    def seats(self) -> "tuple[Seat, Seat]":
        return (SEATS[self], SEATS[self + 2])

    @property
    def other(self) -> "Team":
        return TEAMS[1 - self]

    @classmethod
    def parse(cls, text: Union[str, int, "Team"]) -> "Team":
        """"NS" or "SN", "EW" or "WE" (any case), 0 or 1 (NS, EW), or a Team."""
        if isinstance(text, Team):
            return text
        number = _as_number(text)
        if number is not None and 0 <= number <= 1:
            return Team(number)
        if isinstance(text, str):
            key = text.strip().upper()
            if key in ("NS", "SN"):
                return Team.NS
            if key in ("EW", "WE"):
                return Team.EW
        raise NotationError(f"unknown team {quote(text)}: use NS or EW"
                            f"{', or 0 and 1' if number is not None else ''}")


# The seats and teams by number: SEATS[n] is Seat(n) without the enum's lookup, which cost a
# Game a third of its time (a card asks who is to move, and who wins the trick).
SEATS = tuple(Seat)
TEAMS = tuple(Team)


class ByTeam(Dict[Team, int]):
    """Each team's total or score, keyed by `Team`: `final_scores` and `SolveResult.totals`
    give one. A team's letters read the same entry, and it equals a dict keyed either way; in
    JSON and text the keys are the letters (`to_dict`).

    >>> totals = ByTeam({"NS": 102, "EW": 100})
    >>> totals[Team.NS], totals["NS"], totals == {"NS": 102, "EW": 100}, totals.to_dict()
    (102, 102, True, {'NS': 102, 'EW': 100})
    """

    def __init__(self, values: Union[Mapping[Any, int], Iterable[Tuple[Any, int]]] = ()) -> None:
        items = values.items() if isinstance(values, Mapping) else values
        super().__init__((Team.parse(team), value) for team, value in items)

    def __getitem__(self, team: Union[Team, str, int]) -> int:
        return super().__getitem__(_team_key(team))

    def __setitem__(self, team: Union[Team, str, int], value: int) -> None:
        super().__setitem__(Team.parse(team), value)

    def __contains__(self, team: object) -> bool:
        try:
            return super().__contains__(_team_key(team))
        except KeyError:
            return False

    def get(self, team: Any, default: Any = None) -> Any:
        return self[team] if team in self else default

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        try:
            return dict(self) == {Team.parse(team): value for team, value in other.items()}
        except SolverError:
            return False

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None     # a mutable dict, as dict is

    def to_dict(self) -> Dict[str, int]:
        """{"NS": ..., "EW": ...}: the letters as keys, as JSON and text write them."""
        return {team.name: dict.__getitem__(self, team) for team in Team if dict.__contains__(self, team)}


def _team_key(team: object) -> Team:
    try:
        return Team.parse(team)  # type: ignore[arg-type]
    except SolverError:
        raise KeyError(team) from None


# What the functions that take a suit, rank, card, seat or team accept: the enum (or Card), the
# notation people write ("H", "T", "HA", "N", "NS"), or for suits, seats and teams their
# number (an int or a NumPy integer: 2 is Suit.H, 0 Seat.N, 1 Team.EW).
SuitLike = Union[Suit, str, int]
RankLike = Union[Rank, str]
CardLike = Union[Card, str]
SeatLike = Union[Seat, str, int]
TeamLike = Union[Team, str, int]
# Several cards: a sequence of the above, or one space-separated string ("HA HT H7").
CardsLike = Union[str, Iterable[CardLike]]


def split_cards(text: str) -> List[str]:
    """The cards of a space-separated string, unread; another separator ("HA,HT") is a
    NotationError naming it."""
    separator = _separator_in(text)
    if separator:
        raise NotationError(f"cards are separated by spaces, not {separator!r}: {quote(text)}")
    return text.split()


def parse_cards(cards: CardsLike, notation: str = "en") -> List[Card]:
    """A list of cards from strings, `Card`s, or one space-separated string.

    >>> parse_cards("HA h10 ♠7")
    [Card.parse('HA'), Card.parse('HT'), Card.parse('S7')]
    >>> parse_cards("HA,HT")
    Traceback (most recent call last):
    ...
    solver.errors.NotationError: cards are separated by spaces, not ',': 'HA,HT'
    """
    check_notation(notation)
    if isinstance(cards, str):
        cards = split_cards(cards)
    try:
        return [Card.parse(c, notation) for c in cards]
    except TypeError:
        raise NotationError(f"cards must be a list or a space-separated string, got "
                            f"{quote(cards)}") from None
