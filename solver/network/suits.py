"""The trump-first picture of an observation: its suits renamed so that trump comes first.

The rules treat the four suits alike, so one picture serves every trump, and a network learns
four times from every row. Trump becomes suit 0 and the other suits follow it in suit order,
cyclically; the observation's own trump block (and the turned card's) is kept as it was, for
rules that score some trumps double. The network sees and answers in this picture;
`canonical` goes there, `real_cards` comes back.

>>> from solver import Deal, Game, encode
>>> game = Game(Deal.random(1), trump="S", leader="E", playing="NS")
>>> x = encode.observation(game, "E")[None]
>>> hand = encode.layout()["hand"].slice
>>> sorted(canonical(x)[0, hand].nonzero()[0] // 8) == sorted((c.suit - 3) % 4 for c in game.hands[1])
True
"""
from __future__ import annotations

import itertools
from typing import List, Sequence, Tuple

import numpy as np

from .. import encode
from ..errors import BotError, quote

# The blocks of the observation whose last axis is a card index, renamed with the suits.
CARD_BLOCKS = ("hand", "played_by", "played_in_trick", "current_trick", "seen")


def suit_renaming(suit_of: Sequence[int]) -> Tuple[np.ndarray, np.ndarray]:
    """(feature order, card order) of the observation with suit `suit_of[s]` written where
    suit s was: `x[feature_order]` is the renamed observation (its card blocks; the trump and
    turned blocks stay), and card c of the renamed picture is the card `card_order[c]`."""
    if sorted(suit_of) != [0, 1, 2, 3]:
        raise BotError(f"a suit renaming must name each suit 0..3 once, got {quote(suit_of)}")
    cards = np.array([suit_of[c // 8] * 8 + c % 8 for c in range(32)])
    features = np.arange(encode.SIZE)
    for name in CARD_BLOCKS:
        block = encode.layout()[name]
        for row in range(block.size // 32):
            start = block.start + row * 32
            features[start:start + 32] = start + cards
    return features, cards


def _suit_orders() -> Tuple[np.ndarray, np.ndarray]:
    """For each trump t, `suit_renaming` that puts suit t first and the others after it in
    suit order, cyclically: canonical card c is the real card of suit (c // 8 + t) % 4."""
    pairs = [suit_renaming([(s + trump) % 4 for s in range(4)]) for trump in range(4)]
    return np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])


_FEATURE_ORDER, _CARD_ORDER = _suit_orders()

# The three side suits may be renamed among themselves without changing the game (trump stays
# first): the 6 renamings a trainer shows each row under, six rows' worth from each.
SIDE_SUIT_RENAMINGS: List[Tuple[np.ndarray, np.ndarray]] = [
    suit_renaming([0, *order]) for order in itertools.permutations((1, 2, 3))]


def trumps_of(x: np.ndarray) -> np.ndarray:
    """The trump suit (0..3) of each observation in the batch `x` (rows, SIZE); 0 for a
    ledig round without trump, whose trump block is all zero."""
    block = encode.layout()["trump"]
    result: np.ndarray = np.argmax(x[:, block.slice], axis=1)
    return result


def canonical(x: np.ndarray) -> np.ndarray:
    """Each observation of the batch `x` (rows, SIZE) with its suits renamed so that trump is
    the first."""
    result: np.ndarray = np.take_along_axis(x, _FEATURE_ORDER[trumps_of(x)], axis=1)
    return result


def real_cards(canonical_scores: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """Per-card outputs of the canonical picture put back in real card order."""
    out: np.ndarray = np.empty_like(canonical_scores)
    np.put_along_axis(out, _CARD_ORDER[trumps], canonical_scores, axis=1)
    return out


def canonical_cards(per_card: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """Per-card values in real card order put in the canonical order (`real_cards`'
    inverse)."""
    result: np.ndarray = np.take_along_axis(per_card, _CARD_ORDER[trumps], axis=1)
    return result


__all__ = ["CARD_BLOCKS", "SIDE_SUIT_RENAMINGS", "suit_renaming", "trumps_of", "canonical",
           "real_cards", "canonical_cards"]
