"""PolicyBot: a model trained from the labels plays the card it scores highest among the legal
ones. Its only input is `solver.encode.observation(game, seat)`, what the seat sees.

The model (`PolicyModel`) is a small multilayer perceptron over that array, with one output
per card (its predicted value for the team to move, relative to the position's mean). Before
the network the suits are renamed so that trump comes first (`canonical`): the rules treat
the suits alike, so one trump-first picture serves every trump and a small model learns four
times from every row. The array's own trump block is kept as it was, for rules that score
some trumps double. `examples/train_policy.py` trains one from `sd_values` and saves it;
`PolicyBot.load(path)` plays it.

>>> import numpy as np
>>> from solver import Deal, Game
>>> model = PolicyModel.initial(hidden=16, seed=1)
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> PolicyBot(model).act(game, "E") in game.legal_cards()
True
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from .. import encode
from ..errors import BotError, quote, shorten, whole_number
from ..model.cards import Card, Seat
from ..model.game import Game
from .bot import Bot, check_name

# The blocks of the observation whose last axis is a card index, renamed with the suits.
CARD_BLOCKS = ("hand", "played_by", "played_in_trick", "current_trick", "seen")
FORMAT = "klaverjas-policy-mlp-1"


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


def trumps_of(x: np.ndarray) -> np.ndarray:
    """The trump suit (0..3) of each observation in the batch `x` (rows, SIZE); 0 for a
    ledig round without trump, whose trump block is all zero."""
    block = encode.layout()["trump"]
    result: np.ndarray = np.argmax(x[:, block.slice], axis=1)
    return result


def canonical(x: np.ndarray) -> np.ndarray:
    """Each observation of the batch `x` with its suits renamed so that trump is the first
    (`_FEATURE_ORDER`)."""
    result: np.ndarray = np.take_along_axis(x, _FEATURE_ORDER[trumps_of(x)], axis=1)
    return result


def real_cards(canonical_scores: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """Per-card outputs of the canonical picture put back in real card order."""
    out: np.ndarray = np.empty_like(canonical_scores)
    np.put_along_axis(out, _CARD_ORDER[trumps], canonical_scores, axis=1)
    return out


def canonical_cards(per_card: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """Per-card targets in real card order put in the canonical order (`real_cards`'
    inverse)."""
    result: np.ndarray = np.take_along_axis(per_card, _CARD_ORDER[trumps], axis=1)
    return result


class PolicyModel:
    """A two-layer perceptron (ReLU) from the canonical observation to a score per canonical
    card; `scores(x)` gives them in real card order."""

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                 info: Optional[Dict[str, Any]] = None) -> None:
        self.w1, self.b1, self.w2, self.b2 = _layers(w1, b1, w2, b2)
        if info is not None and not isinstance(info, dict):
            raise BotError(f"a policy model's info must be a dict or None, got {quote(info)}")
        self.info = dict(info or {})

    @classmethod
    def initial(cls, hidden: int = 128, seed: int = 0) -> "PolicyModel":
        """A model with small random weights, to be trained."""
        hidden = whole_number("hidden", hidden, 1, 4096, error=BotError)
        rng = np.random.default_rng(whole_number("seed", seed, 0, error=BotError))
        return cls(rng.normal(0, (2 / encode.SIZE) ** 0.5, (encode.SIZE, hidden)),
                   np.zeros(hidden), rng.normal(0, (1 / hidden) ** 0.5, (hidden, 32)),
                   np.zeros(32))

    def hidden(self, xc: np.ndarray) -> np.ndarray:
        """The hidden layer for canonical observations `xc`."""
        result: np.ndarray = np.maximum(xc @ self.w1 + self.b1, 0.0)
        return result

    def scores(self, x: np.ndarray) -> np.ndarray:
        """A score for each card (real card order) of each observation in `x` (rows, SIZE)."""
        x = _observations(x)
        out = self.hidden(canonical(x)) @ self.w2 + self.b2
        return real_cards(out, trumps_of(x))

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write the model to `path` (NumPy's .npz)."""
        where = f"policy file {quote(_path_text(path))}"
        path = Path(path)
        if path.is_dir():
            raise BotError(f"cannot write {where}: it is a folder")
        if not path.parent.is_dir():
            raise BotError(f"cannot write {where}: no folder {quote(str(path.parent))}")
        meta = np.array([FORMAT, repr(sorted(self.info.items()))])
        with open(path, "wb") as f:
            np.savez(f, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2, meta=meta)

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "PolicyModel":
        """The model `save` wrote to `path`, every array checked (its dtype, its shape against
        the others' and `encode.layout()`, finite weights, the format in `meta`); BotError
        naming the file and what is wrong if it is not one."""
        where = f"policy file {quote(_path_text(path))}"
        if Path(path).is_dir():
            raise BotError(f"{where} is a folder, not a model written by PolicyModel.save")
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                missing = [k for k in _ARRAYS if k not in data.files]
                if missing:
                    raise BotError(f"{where} has no {quote(missing[0])} array: it is not a "
                                   f"policy model written by PolicyModel.save")
                arrays = {k: data[k] for k in _ARRAYS}
        except FileNotFoundError:
            raise BotError(f"{where} does not exist") from None
        except BotError:
            raise
        except Exception as err:    # empty, not a zip, a damaged member, a .npy: all say so
            reason = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            raise BotError(f"{where} is not a policy model written by PolicyModel.save "
                           f"({shorten(reason)})") from None
        meta = arrays["meta"]
        if meta.dtype.kind != "U" or meta.ndim != 1 or meta.size == 0 or str(meta[0]) != FORMAT:
            raise BotError(f"{where} is not a policy model of format {FORMAT} (its meta "
                           f"array is {quote(meta.tolist(), 60)})")
        try:
            return cls(arrays["w1"], arrays["b1"], arrays["w2"], arrays["b2"],
                       {"file": str(path)})
        except BotError as err:
            raise BotError(f"{where}: {err}") from None


_ARRAYS = ("w1", "b1", "w2", "b2", "meta")


def _path_text(path: Any) -> str:
    """`path` as text, for a message; BotError if it is not a path at all."""
    if not isinstance(path, (str, os.PathLike)):
        raise BotError(f"a policy file must be a path (str or pathlib.Path), got {quote(path)}")
    return os.fsdecode(path)


def _observations(x: Any) -> np.ndarray:
    """`x`, one observation or a batch of them, as a float32 array (rows, SIZE)."""
    try:
        array = np.asarray(x)
    except Exception:   # ragged lists and the like
        array = np.asarray(None)
    if array.dtype.kind not in "fiub" or array.ndim not in (1, 2) or \
            array.shape[-1] != encode.SIZE or not np.isfinite(array).all():
        raise BotError(f"a policy model scores observations: arrays of {encode.SIZE} finite "
                       f"numbers (encode.observation), or a batch of them, one a row; got "
                       f"{quote(x, 60)}")
    result: np.ndarray = np.atleast_2d(array.astype(np.float32))
    return result


def _layers(w1: Any, b1: Any, w2: Any, b2: Any) -> Tuple[np.ndarray, ...]:
    """The four arrays as float32, once each is a finite real array and their shapes fit
    together: w1 (observation size, hidden), b1 (hidden,), w2 (hidden, 32), b2 (32,)."""
    arrays = {}
    for name, value in (("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2)):
        try:
            array = np.asarray(value)
        except Exception:   # ragged lists and the like
            raise BotError(f"a policy model's {name} must be an array of numbers, got "
                           f"{quote(value)}") from None
        if array.dtype.kind not in "fiu":
            raise BotError(f"a policy model's {name} must hold numbers, got an array of "
                           f"dtype {array.dtype}")
        if not np.isfinite(array).all():
            raise BotError(f"a policy model's {name} holds a number that is not finite")
        arrays[name] = array
    hidden = arrays["w1"].shape[1] if arrays["w1"].ndim == 2 else "hidden"
    expected = {"w1": ((encode.SIZE, hidden), "the observation's numbers, hidden units"),
                "b1": ((hidden,), "hidden units"), "w2": ((hidden, 32), "hidden units, cards"),
                "b2": ((32,), "cards")}
    if hidden == 0:
        raise BotError(f"a policy model needs at least one hidden unit: w1 has shape "
                       f"{arrays['w1'].shape}")
    for name, (shape, axes) in expected.items():
        if arrays[name].shape != shape:
            raise BotError(f"a policy model's {name} must have shape {shape} ({axes}; the "
                           f"observation as encode.layout() lays it out), got "
                           f"{arrays[name].shape}")
    return tuple(arrays[name].astype(np.float32) for name in expected)


class PolicyBot(Bot):
    """Plays the legal card its model scores highest (the first in card order on a tie)."""

    def __init__(self, model: PolicyModel, seed: Optional[int] = None,
                 name: Optional[str] = None) -> None:
        if not isinstance(model, PolicyModel):
            raise BotError(f"PolicyBot needs a PolicyModel (PolicyModel.load(path)), got "
                           f"{quote(model)}")
        self.model = model
        self.name = check_name(name) if name is not None else \
            f"policy:{Path(str(model.info.get('file', 'model'))).name}"
        super().__init__(seed)

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "PolicyBot":
        """A PolicyBot playing the model saved at `path`."""
        return cls(PolicyModel.load(path), name=f"policy:{Path(path).name}")

    def choose(self, game: Game, seat: Seat) -> Card:
        scores = self.model.scores(encode.observation(game, seat))[0]
        legal = game.legal_cards()
        return max(legal, key=lambda c: (float(scores[c.index]), -c.index))


def legal_mask(values: np.ndarray, not_legal: Any) -> np.ndarray:
    """Which cards of each label row are legal: `values` is a per-card column of the labels
    (`values`, or `sd_values` with NaN for the cards not legal)."""
    values = np.asarray(values)
    legal: np.ndarray = ~np.isnan(values) if values.dtype.kind == "f" else values != not_legal
    return legal


__all__ = ["PolicyBot", "PolicyModel", "canonical", "canonical_cards", "real_cards",
           "trumps_of", "legal_mask"]
