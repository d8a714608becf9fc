"""Deal: four hands of 8 cards, validated, in the PBN-style notation of docs/rules.md ("Seats,
cards and notation")."""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Sequence, Tuple, Union

from .cards import (_SUIT_SYMBOLS, ALL_CARDS, Card, CardLike, Rank, Seat, SeatLike, Suit,
                    check_notation)
from ..errors import DealError, SolverError, quote, whole_number
from .streams import SplitMix64

# Deal.random's seeds: the 64-bit states of its generator.
MOST_SEED = (1 << 64) - 1

# A hand is written spades.hearts.diamonds.clubs, as bridge tools do.
_PBN_SUIT_ORDER = (Suit.S, Suit.H, Suit.D, Suit.C)

# One hand as `Deal()` takes it: cards or their notation, or one space-separated string.
HandLike = Union[str, Iterable[CardLike]]
# The hands by seat (keys Seat or "N"), or the four hands in seat order N E S W.
HandsLike = Union[Mapping[Seat, HandLike], Mapping[str, HandLike], Iterable[HandLike]]


def check_deal(deal: Any) -> "Deal":
    """`deal` when it is a Deal; anything else is a DealError, whichever function it was
    given to."""
    if not isinstance(deal, Deal):
        raise DealError(f"deal must be a Deal (Deal.from_pbn('N:...')), got {quote(deal)}")
    return deal


class Deal:
    """Four hands of 8 cards each, every card once.

    >>> deal = Deal.random(7)
    >>> Deal.from_pbn(deal.to_pbn()) == deal
    True
    """

    # _masks: each hand as the engine's set of cards (bit card.index), made once with the
    # deal: a solve's call reads them instead of building them again.
    __slots__ = ("_hands", "_masks")

    def __init__(self, hands: HandsLike) -> None:
        if isinstance(hands, str):
            raise DealError(f"Deal() takes four hands; for notation use Deal.from_pbn({quote(hands)})")
        if isinstance(hands, Mapping):
            try:
                by_seat = {Seat.parse(seat): cards for seat, cards in hands.items()}
            except SolverError as err:
                raise DealError(str(err)) from None
            missing = [s.name for s in Seat if s not in by_seat]
            if missing:
                raise DealError(f"no hand given for seat {', '.join(missing)}")
            hands = [by_seat[s] for s in Seat]
        try:
            hands = list(hands)
        except TypeError:
            raise DealError(f"a deal is four hands (lists of cards), got {quote(hands)}") from None
        if len(hands) != 4:
            raise DealError(f"a deal has 4 hands, got {len(hands)}")
        parsed = []
        for seat, cards in zip(Seat, hands):
            if isinstance(cards, str):
                cards = cards.split()
            try:
                parsed.append(tuple(Card.parse(c) for c in cards))
            except SolverError as err:
                raise DealError(f"seat {seat.name}: {err}") from None
            except TypeError:
                raise DealError(f"seat {seat.name}: a hand is a list of cards, got "
                                f"{quote(cards)}") from None
        self._hands = tuple(tuple(sorted(h, key=_display_key)) for h in parsed)
        self._masks = _masks_of(self._hands)
        if self._masks[0] | self._masks[1] | self._masks[2] | self._masks[3] != ALL_MASK \
                or any(len(hand) != 8 for hand in self._hands):
            self._validate()    # 32 cards once each, 8 a hand is all a mask needs to see

    @classmethod
    def _dealt(cls, hands: Sequence[Sequence[int]]) -> "Deal":
        """The deal of four hands of card indices that a caller's construction already makes
        a deal (8 cards each, every card once: the worlds of `sample_worlds`), sorted as
        `Deal()` sorts them but not parsed nor validated again: a world of a view cost 70 us
        with both, 15 us without (a PIMC move at trick 5, 32 worlds: 0.69x the CPU)."""
        deal = object.__new__(cls)
        deal._hands = tuple(tuple(map(_CARD_IN_ORDER.__getitem__,
                                      sorted(map(_ORDER_OF.__getitem__, hand))))
                            for hand in hands)
        deal._masks = _masks_of(deal._hands)
        return deal

    def _validate(self) -> None:
        seen: Dict[Card, Seat] = {}
        for seat, hand in zip(Seat, self._hands):
            for card in hand:
                if card in seen:
                    where = f"seats {seen[card].name} and {seat.name}" if seen[card] != seat \
                        else f"seat {seat.name} twice"
                    raise DealError(f"card {card} is dealt twice ({where})")
                seen[card] = seat
        missing = ", ".join(str(c) for c in ALL_CARDS if c not in seen)
        for seat, hand in zip(Seat, self._hands):
            if len(hand) != 8:
                note = f" (not dealt: {missing})" if missing else ""
                raise DealError(f"seat {seat.name} has {len(hand)} cards; every seat needs 8{note}")
        if missing:
            raise DealError(f"card {missing} missing from the deal")
        raise AssertionError("unreachable: the masks show a card missing or twice")

    def __getstate__(self) -> "tuple[tuple[Card, ...], ...]":
        return self._hands

    def __setstate__(self, state: Any) -> None:
        # A deal pickled before it kept its masks comes as (None, {"_hands": ...}).
        if len(state) == 2 and isinstance(state[1], dict):
            state = state[1]["_hands"]
        self._hands = state
        self._masks = _masks_of(state)

    def __getitem__(self, seat: SeatLike) -> "tuple[Card, ...]":
        """The hand dealt to `seat`, highest suit (spades) first, high cards first."""
        return self._hands[Seat.parse(seat)]

    @property
    def hands(self) -> "tuple[tuple[Card, ...], ...]":
        """The four hands in seat order N E S W, each as `deal[seat]` gives it."""
        return self._hands

    def holder(self, card: Union[Card, str]) -> Seat:
        """The seat that was dealt `card`."""
        card = Card.parse(card)
        for seat, hand in zip(Seat, self._hands):
            if card in hand:
                return seat
        raise AssertionError("unreachable: every card is dealt")

    # -- notation -------------------------------------------------------------------------

    @classmethod
    def from_pbn(cls, text: str, notation: str = "en") -> "Deal":
        """Parse `N:<hand> <hand> <hand> <hand>`, hands from the named seat clockwise.

        A hand is `spades.hearts.diamonds.clubs`; `T` or `10` for ten; `-` or empty for a void.
        A suit may start with its symbol, as `to_text` shows it (`♠A7.♥KQ9.♦9.♣87`). With
        `notation="nl"` the ranks are the Dutch ones (A H V B 10 9 8 7).

        >>> deal = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
        >>> Deal.from_pbn("N:♠A7.♥KQ9.♦9.♣87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ") == deal
        True
        >>> deal.to_pbn(notation="nl")
        'N:A7.HV9.9.87 B10.B.HV108.10 HV.A87.A7.9 98.10.B.AHVB'
        >>> Deal.from_pbn(deal.to_pbn(notation="nl"), notation="nl") == deal
        True
        """
        check_notation(notation)
        if not isinstance(text, str):
            raise DealError(f"a deal in notation is a string, got {quote(text)}")
        body = text.strip()
        if len(body) < 2 or body[1] != ":" or body[0].upper() not in "NESW":
            raise DealError(
                f"deal {quote(text)} must start with the first seat and a colon, e.g. 'N:AKQ.J9.T8.7 ...'")
        first = Seat.parse(body[0])
        parts = body[2:].split()
        if len(parts) != 4:
            raise DealError(f"a deal has 4 hands separated by spaces, got {len(parts)} in {quote(text)}")
        hands: Dict[Seat, List[Card]] = {}
        for offset, part in enumerate(parts):
            seat = Seat((first + offset) % 4)
            hands[seat] = _parse_hand(part, seat, notation)
        return cls(hands)

    def to_pbn(self, first: SeatLike = Seat.N, notation: str = "en") -> str:
        """The deal in the notation of docs/rules.md, starting from seat `first`; with
        `notation="nl"`, Dutch ranks (`from_pbn(..., notation="nl")` reads it back)."""
        first = Seat.parse(first)
        check_notation(notation)
        seats = [Seat((first + i) % 4) for i in range(4)]
        return f"{first.name}:" + " ".join(_format_hand(self._hands[s], notation) for s in seats)

    # -- seeded deals ---------------------------------------------------------------------

    @classmethod
    def random(cls, seed: int) -> "Deal":
        """A shuffled deal, the same for the same seed on every machine and Python version.

        Uses its own SplitMix64 generator, so it does not depend on `random`'s internals. The
        seed is a whole number from 0 to 2**64 - 1, the generator's states: no two seeds give
        the same stream.
        """
        rng = SplitMix64(whole_number("a deal's seed", seed, 0, MOST_SEED, DealError))
        cards = list(range(32))
        for i in range(31, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cls([[ALL_CARDS[c] for c in cards[8 * s: 8 * s + 8]] for s in range(4)])

    # -- value semantics ------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self._hands == other._hands

    def __hash__(self) -> int:
        return hash(self._hands)

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.to_pbn()!r})"

    def __str__(self) -> str:
        return self.to_pbn()

    def _repr_html_(self) -> str:
        from ..html.jupyter import deal_html
        return deal_html(self)

    def to_text(self, symbols: bool = True, notation: str = "en") -> str:
        """A readable four-line picture of the deal, one line a seat; ranks (and suits
        without `symbols`) in the card `notation`."""
        check_notation(notation)
        lines = []
        for seat, hand in zip(Seat, self._hands):
            groups = []
            for suit in _PBN_SUIT_ORDER:
                ranks = "".join(c.rank.letter_in(notation) for c in hand if c.suit == suit) or "-"
                groups.append((suit.symbol if symbols else suit.letter_in(notation)) + ranks)
            lines.append(f"{seat.name}  " + "  ".join(f"{g:<7}" for g in groups).rstrip())
        return "\n".join(lines)


def _display_key(card: Card) -> Tuple[int, int]:
    return (_PBN_SUIT_ORDER.index(card.suit), -card.rank)


# Every card's bit set: the four hands of a deal together.
ALL_MASK = (1 << 32) - 1


def _masks_of(hands: "tuple[tuple[Card, ...], ...]") -> Tuple[int, int, int, int]:
    """Each hand as the engine's set of cards: bit `card.index` for each card."""
    masks = [0, 0, 0, 0]
    for seat, hand in enumerate(hands):
        for card in hand:
            masks[seat] |= 1 << card.index
    return masks[0], masks[1], masks[2], masks[3]


# Each card index's place in a hand as a deal shows it (_display_key), and the card at each place.
_CARD_IN_ORDER = tuple(sorted(ALL_CARDS, key=_display_key))
_ORDER_OF = tuple(_CARD_IN_ORDER.index(card) for card in ALL_CARDS)


def _parse_hand(text: str, seat: Seat, notation: str = "en") -> "list[Card]":
    example = "AK.QJ9.T8.7" if notation == "en" else "AH.VB9.108.7"
    how = f"a hand is spades.hearts.diamonds.clubs, ranks only, e.g. {example}"
    groups = text.split(".")
    if len(groups) != 4:
        raise DealError(
            f"seat {seat.name}: hand {quote(text)} needs 4 suits separated by dots (spades.hearts.diamonds.clubs)")
    ranks = "789TJQKA" if notation == "en" else "789TBVHA"
    cards = []
    for suit, group in zip(_PBN_SUIT_ORDER, groups):
        # A suit's own symbol in front is read (as to_text shows a hand); another is refused.
        if group[:1] in _SUIT_SYMBOLS:
            if _SUIT_SYMBOLS[group[0]] != suit:
                raise DealError(f"seat {seat.name}: {quote(group[0])} stands where the "
                                f"{_SUIT_WORDS[suit]} go in {quote(text)}: {how}")
            group = group[1:]
        if group == "-":
            continue
        chars = group.upper().replace("10", "T")
        for ch in chars:
            if ch not in ranks:
                symbol = " (suit symbols go only in front of their own suit)" \
                    if ch in _SUIT_SYMBOLS else ""
                raise DealError(f"seat {seat.name}: unknown rank {quote(ch)} in {suit.name} of "
                                f"{quote(text)}{symbol}: {how}")
            cards.append(Card(suit, Rank.parse(ch, notation)))
    return cards


_SUIT_WORDS = {Suit.S: "spades", Suit.H: "hearts", Suit.D: "diamonds", Suit.C: "clubs"}


def _format_hand(hand: Sequence[Card], notation: str = "en") -> str:
    return ".".join(
        "".join(c.rank.letter_in(notation) for c in hand if c.suit == suit) or "-"
        for suit in _PBN_SUIT_ORDER)
