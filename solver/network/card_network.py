"""CardNetwork: a multilayer perceptron (ReLU) from what a seat sees to a value per card, in
NumPy alone, and the file it is saved in.

`scores(x)` takes observations (`solver.encode.observation`, one a row) and gives, per row,
a value for each of the 32 cards, in real card order: what the network expects that card to
be worth to the team to move, relative to the other legal cards (the values of cards that are
not legal mean nothing). A network of `klaverjas train` gives them in hundreds of points,
sharpened toward the best cards (its fit adds a cross-entropy, `solver.training.fit`).
Inside, the suits are renamed trump first (`solver.network.suits`).

A file (`save`, NumPy's .npz) holds the weights `w1, b1, ..., wN, bN` (float32, or float16
to ship small) and `meta`: the format name and the network's `info` as JSON (how it was
trained). `load_network` reads it and checks everything; this version also reads format 1,
the one-hidden-layer files `PolicyModel.save` wrote before.

>>> from solver import Deal, Game, encode
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> network = CardNetwork.initial(hidden=(16, 8), seed=1)
>>> network.hidden_sizes, network.scores(encode.observation(game, "E")).shape
((16, 8), (1, 32))
"""
from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union

import numpy as np

from .. import encode
from ..errors import BotError, quote, shorten, whole_number
from .suits import canonical, real_cards, trumps_of

FORMAT = "klaverjas-card-network-2"
# PolicyModel.save's files before format 2: one hidden layer (w1, b1, w2, b2), no info.
FORMAT_1 = "klaverjas-policy-mlp-1"
# The format names this and other versions write: one of them that is not read here is a
# file of another version, and is named so.
_FAMILY = re.compile(r"klaverjas-(card-network|policy-mlp)-\d+")
STORAGE = ("float32", "float16")
# The network shipped in the package, which `default_network` plays.
SHIPPED = Path(__file__).with_name("player.npz")

PathLike = Union[str, "os.PathLike[str]"]
Layer = Tuple[np.ndarray, np.ndarray]
N = TypeVar("N", bound="CardNetwork")


class CardNetwork:
    """Layers of (weights, bias), float32 copies of those given: ReLU after each but the last,
    which gives 32 values, one per card of the trump-first picture."""

    # How messages name this class's files and models.
    file_word = "network file"
    model_word = "card network"

    def __init__(self, layers: Sequence[Tuple[Any, Any]],
                 info: Optional[Mapping[str, Any]] = None) -> None:
        self.layers: Tuple[Layer, ...] = _check_layers(layers, self.model_word)
        self.info: Dict[str, Any] = _check_info(info, self.model_word)

    @classmethod
    def initial(cls, hidden: Union[int, Sequence[int]] = (256, 256), seed: int = 0
                ) -> "CardNetwork":
        """A network with small random weights (He's scaling), to be trained: `hidden` is the
        number of units of each hidden layer (an int: one layer)."""
        sizes = (hidden,) if isinstance(hidden, (int, np.integer)) else tuple(hidden)
        sizes = tuple(whole_number("hidden", h, 1, 4096, error=BotError) for h in sizes)
        rng = np.random.default_rng(whole_number("seed", seed, 0, error=BotError))
        widths = (encode.SIZE, *sizes, 32)
        return cls([(rng.normal(0, (2 / a) ** 0.5, (a, b)), np.zeros(b))
                    for a, b in zip(widths, widths[1:])])

    @property
    def hidden_sizes(self) -> Tuple[int, ...]:
        """The units of each hidden layer."""
        return tuple(w.shape[1] for w, _ in self.layers[:-1])

    def forward(self, xc: np.ndarray) -> np.ndarray:
        """The 32 outputs of each canonical (trump-first) observation of the batch `xc`."""
        h = xc
        for k, (w, b) in enumerate(self.layers):
            if k == 0 and len(xc) == 1:
                # One observation, mostly zeros (a bot's move): only the rows of w1 its
                # non-zero numbers select take part, a fraction of the product's work.
                on = np.flatnonzero(xc[0])
                h = (xc[:, on] @ w[on]) + b
            else:
                h = h @ w + b
            if k < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        result: np.ndarray = h
        return result

    def scores(self, x: Any) -> np.ndarray:
        """A value for each card (real card order) of each observation of `x`, one
        observation (SIZE,) or a batch (rows, SIZE): an array (rows, 32), float32."""
        x = _observations(x, self.model_word)
        return real_cards(self.forward(canonical(x)), trumps_of(x))

    def save(self, path: PathLike, storage: str = "float32") -> None:
        """Write the network to `path` (.npz, format 2), its weights stored as `storage`
        (float32, or float16: half the size, the weights rounded to 3 digits)."""
        where = f"{self.file_word} {quote(_path_text(path, self.file_word))}"
        if storage not in STORAGE:
            raise BotError(f"cannot write {where}: storage must be one of "
                           f"{', '.join(STORAGE)}, got {quote(storage)}")
        path = Path(path)
        if path.is_dir():
            raise BotError(f"cannot write {where}: it is a folder")
        if not path.parent.is_dir():
            raise BotError(f"cannot write {where}: no folder {quote(str(path.parent))}")
        info = {k: v for k, v in self.info.items() if k != "file"}
        arrays: Dict[str, Any] = {"meta": np.array([FORMAT, json.dumps(info, sort_keys=True)])}
        for k, (w, b) in enumerate(self.layers, 1):
            arrays[f"w{k}"], arrays[f"b{k}"] = w.astype(storage), b.astype(storage)
        with open(path, "wb") as f:
            np.savez(f, **arrays)

    @classmethod
    def load(cls: Type[N], path: PathLike) -> N:
        """The network `save` wrote to `path`, every array checked (its dtype, its shape
        against the others' and `encode.layout()`, finite weights, the format in `meta`);
        BotError naming the file and what is wrong if it is not one."""
        text = _path_text(path, cls.file_word)
        where = f"{cls.file_word} {quote(text)}"
        written_by = f"a {cls.model_word} written by {cls.__name__}.save"
        if Path(path).is_dir():
            raise BotError(f"{where} is a folder, not {written_by}")
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                if "meta" not in data.files:
                    raise BotError(f"{where} has no 'meta' array: it is not {written_by}")
                meta = data["meta"]
                version = _format_of(meta, where, cls.model_word)
                count = 2 if version == FORMAT_1 else \
                    sum(bool(re.fullmatch(r"w[0-9]+", k)) for k in data.files)
                names = [f"{p}{k}" for k in range(1, max(count, 1) + 1) for p in "wb"]
                missing = [k for k in names if k not in data.files]
                if missing:
                    raise BotError(f"{where} has no {quote(missing[0])} array: it is not "
                                   f"{written_by}")
                arrays = {k: data[k] for k in names}
        except FileNotFoundError:
            raise BotError(f"{where} does not exist") from None
        except BotError:
            raise
        except Exception as err:    # empty, not a zip, a damaged member, a .npy: all say so
            reason = f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
            raise BotError(f"{where} is not {written_by} ({shorten(reason)})") from None
        info = {} if version == FORMAT_1 else _info_of(meta, where)
        layers = [(arrays[f"w{k}"], arrays[f"b{k}"]) for k in range(1, count + 1)]
        try:
            return cls._from_layers(layers, {**info, "file": text})
        except BotError as err:
            raise BotError(f"{where}: {err}") from None

    @classmethod
    def _from_layers(cls: Type[N], layers: List[Tuple[np.ndarray, np.ndarray]],
                     info: Dict[str, Any]) -> N:
        """A network of this class from a file's layers (a subclass with other arguments
        says how)."""
        return cls(layers, info)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} hidden={list(self.hidden_sizes)}>"


def load_network(path: PathLike) -> CardNetwork:
    """The network saved at `path` (`CardNetwork.load`)."""
    return CardNetwork.load(path)


@lru_cache(maxsize=None)
def default_network() -> CardNetwork:
    """The network shipped in the package (`solver/network/player.npz`), loaded once: the
    `learned` player of the arena. Its `info` says how it was trained.

    >>> default_network().scores(np.zeros((2, encode.SIZE))).shape
    (2, 32)
    """
    network = load_network(SHIPPED)
    for array in (a for layer in network.layers for a in layer):
        array.setflags(write=False)
    return network


def _format_of(meta: np.ndarray, where: str, model_word: str) -> str:
    """The format named by a file's `meta`, one this version reads; BotError otherwise,
    saying which format it is and what to do."""
    version = str(meta[0]) if meta.dtype.kind == "U" and meta.ndim == 1 and meta.size else None
    if version in (FORMAT, FORMAT_1):
        return str(version)
    if version is not None and _FAMILY.fullmatch(version):
        raise BotError(f"{where} is a {model_word} of format {version}, which this version of "
                       f"klaverjas-solver does not read (it reads {FORMAT} and {FORMAT_1}): "
                       f"play it with the version that wrote it, or train it again with "
                       f"`klaverjas train`")
    raise BotError(f"{where} is not a {model_word} of format {FORMAT} (its meta array is "
                   f"{quote(meta.tolist(), 60)})")


def _info_of(meta: np.ndarray, where: str) -> Dict[str, Any]:
    """The info a format-2 file's `meta` holds (a JSON object), else BotError."""
    try:
        info = json.loads(str(meta[1])) if meta.size == 2 else None
    except ValueError:
        info = None
    if not isinstance(info, dict):
        raise BotError(f"{where} has no info in its meta array (a JSON object after the "
                       f"format name), got {quote(meta.tolist(), 60)}")
    return info


def _path_text(path: Any, file_word: str) -> str:
    """`path` as text, for a message; BotError if it is not a path at all."""
    if not isinstance(path, (str, os.PathLike)):
        raise BotError(f"a {file_word} must be a path (str or pathlib.Path), got {quote(path)}")
    return os.fsdecode(path)


def _check_info(info: Any, model_word: str) -> Dict[str, Any]:
    """`info` as a dict that JSON can write, else BotError."""
    if info is None:
        return {}
    if not isinstance(info, Mapping):
        raise BotError(f"a {model_word}'s info must be a dict or None, got {quote(info)}")
    try:
        json.dumps(dict(info))
    except (TypeError, ValueError) as err:
        raise BotError(f"a {model_word}'s info must be what JSON can write: {err}") from None
    return dict(info)


def _observations(x: Any, model_word: str) -> np.ndarray:
    """`x`, one observation or a batch of them, as a float32 array (rows, SIZE)."""
    try:
        array = np.asarray(x)
    except Exception:   # ragged lists and the like
        array = np.asarray(None)
    if array.dtype.kind not in "fiub" or array.ndim not in (1, 2) or \
            array.shape[-1] != encode.SIZE or not np.isfinite(array).all():
        raise BotError(f"a {model_word} scores observations: arrays of {encode.SIZE} finite "
                       f"numbers (encode.observation), or a batch of them, one a row; got "
                       f"{quote(x, 60)}")
    result: np.ndarray = np.atleast_2d(array.astype(np.float32, copy=False))
    return result


def _check_layers(layers: Any, model_word: str) -> Tuple[Layer, ...]:
    """The layers as float32 arrays, once each is a finite real array and their
    shapes fit together: w1 (observation size, units 1), b1 (units 1,), ..., wN (units N-1,
    32), bN (32,)."""
    try:
        pairs = [(w, b) for w, b in layers]
    except (TypeError, ValueError):
        raise BotError(f"a {model_word}'s layers must be (weights, bias) pairs, got "
                       f"{quote(layers)}") from None
    if not pairs:
        raise BotError(f"a {model_word} needs at least one layer")
    arrays: Dict[str, np.ndarray] = {}
    for k, pair in enumerate(pairs, 1):
        for name, value in zip((f"w{k}", f"b{k}"), pair):
            arrays[name] = _numbers(name, value, model_word)
    result = []
    inputs: Union[int, str] = encode.SIZE
    for k in range(1, len(pairs) + 1):
        w, b = arrays[f"w{k}"], arrays[f"b{k}"]
        last = k == len(pairs)
        units: Union[int, str] = 32 if last else w.shape[1] if w.ndim == 2 else "hidden"
        if units == 0:
            raise BotError(f"a {model_word} needs at least one hidden unit: w{k} has shape "
                           f"{w.shape}")
        into = "the observation's numbers" if k == 1 else "hidden units"
        out = "cards" if last else "hidden units"
        for name, array, shape, axes in ((f"w{k}", w, (inputs, units), f"{into}, {out}"),
                                         (f"b{k}", b, (units,), out)):
            if array.shape != shape:
                raise BotError(f"a {model_word}'s {name} must have shape {shape} ({axes}; the "
                               f"observation as encode.layout() lays it out), got "
                               f"{array.shape}")
        result.append((w.astype(np.float32), b.astype(np.float32)))
        inputs = units
    return tuple(result)


def _numbers(name: str, value: Any, model_word: str) -> np.ndarray:
    """`value` as an array of finite real numbers, else BotError naming the array `name`."""
    try:
        array: np.ndarray = np.asarray(value)
    except Exception:   # ragged lists and the like
        raise BotError(f"a {model_word}'s {name} must be an array of numbers, got "
                       f"{quote(value)}") from None
    if array.dtype.kind not in "fiu":
        raise BotError(f"a {model_word}'s {name} must hold numbers, got an array of dtype "
                       f"{array.dtype}")
    if not np.isfinite(array).all():
        raise BotError(f"a {model_word}'s {name} holds a number that is not finite")
    return array


__all__ = ["CardNetwork", "FORMAT", "FORMAT_1", "SHIPPED", "load_network", "default_network"]
