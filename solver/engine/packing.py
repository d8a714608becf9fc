"""How the engine takes cards: a hand is a 32-bit set, bit `card.index` (`suit * 8 + rank`)
for each card it holds; a spec's trump is a suit's number or `WITHOUT_TRUMP`. Callers outside
the engine hand it cards, seats and specs, and leave the bits to this module.

>>> from solver.model.cards import parse_cards
>>> hex(hand_mask(parse_cards("C7 C8 SA")))
'0x80000003'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional

from ..model.cards import Card, Suit
from ._compiled import engine as _engine

if TYPE_CHECKING:       # NumPy is imported by the batch's call alone: Solver does without it
    import numpy as np

CARDS = 32
SEATS = 4


def hand_mask(cards: Iterable[Card]) -> int:
    """The engine's set of `cards`: bit `card.index` for each."""
    return sum(1 << card.index for card in cards)


def hand_masks(deal: "np.ndarray") -> "np.ndarray":
    """uint32[N, 4]: each seat's hand as the engine's set, for rows of `deal` (int8[N, 32],
    the seat dealt each card by card index, as the batch reads it).

    >>> import numpy as np
    >>> hand_masks(np.array([[0] * 8 + [1] * 8 + [2] * 8 + [3] * 8])).tolist()
    [[255, 65280, 16711680, 4278190080]]
    """
    import numpy as np
    bits = np.uint64(1) << np.arange(CARDS, dtype=np.uint64)
    masks = np.stack([((deal == seat) * bits).sum(1, dtype=np.uint64) for seat in range(SEATS)],
                     axis=1)
    packed: "np.ndarray" = np.ascontiguousarray(masks.astype(np.uint32))
    return packed


def spec_trump(spec: Mapping[str, Any]) -> Optional[Suit]:
    """The trump of an engine spec (`engine_spec`), None for a round without one."""
    trump = int(spec["trump"])
    return None if trump == _engine.WITHOUT_TRUMP else Suit(trump)
