"""PolicyBot: a card network (`solver.network`) trained from the labels plays the card it
scores highest among the legal ones (a `LearnedBot` by another name). Its only input is
`solver.encode.observation(game, seat)`, what the seat sees.

`PolicyModel` is the one-hidden-layer `CardNetwork` that `examples/train_policy.py` trained
before `klaverjas train`: its files (format 1, or format 2 with one hidden layer) load as
they did, and `policy:PATH` plays them. The trump-first picture (`canonical`, `real_cards`,
...) now lives in `solver.network.suits`, and is named here too for the code that used it.

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
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np

from ..errors import BotError, quote, whole_number
from ..network import CardNetwork
from ..network.suits import canonical, canonical_cards, real_cards, suit_renaming, trumps_of
from .learned import LearnedBot


class PolicyModel(CardNetwork):
    """A CardNetwork with one hidden layer, made from its four arrays: w1 (observation size,
    hidden), b1 (hidden,), w2 (hidden, 32), b2 (32,)."""

    file_word = "policy file"
    model_word = "policy model"

    def __init__(self, w1: Any, b1: Any, w2: Any, b2: Any,
                 info: Optional[Dict[str, Any]] = None) -> None:
        super().__init__([(w1, b1), (w2, b2)], info)

    @classmethod
    def initial(cls, hidden: Any = 128, seed: int = 0) -> "PolicyModel":
        """A model with small random weights, to be trained."""
        hidden = whole_number("hidden", hidden, 1, 4096, error=BotError)
        (w1, b1), (w2, b2) = CardNetwork.initial(hidden, seed).layers
        return cls(w1, b1, w2, b2)

    @classmethod
    def _from_layers(cls, layers: List[Tuple[np.ndarray, np.ndarray]],
                     info: Dict[str, Any]) -> "PolicyModel":
        if len(layers) != 2:
            raise BotError(f"it has {len(layers) - 1} hidden layers, a policy model one: "
                           f"play it as learned:PATH (solver.network.load_network)")
        (w1, b1), (w2, b2) = layers
        return cls(w1, b1, w2, b2, info)

    @property
    def w1(self) -> np.ndarray:
        return self.layers[0][0]

    @property
    def b1(self) -> np.ndarray:
        return self.layers[0][1]

    @property
    def w2(self) -> np.ndarray:
        return self.layers[1][0]

    @property
    def b2(self) -> np.ndarray:
        return self.layers[1][1]

    def hidden(self, xc: np.ndarray) -> np.ndarray:
        """The hidden layer for canonical observations `xc`."""
        result: np.ndarray = np.maximum(xc @ self.w1 + self.b1, 0.0)
        return result


class PolicyBot(LearnedBot):
    """A LearnedBot named `policy:FILE`, playing a model given (`model`) or loaded from a
    policy file (`PolicyBot.load`, the arena's `policy:PATH`)."""

    def __init__(self, model: CardNetwork, seed: Optional[int] = None,
                 name: Optional[str] = None) -> None:
        if not isinstance(model, CardNetwork):
            raise BotError(f"PolicyBot needs a CardNetwork (solver.network.load_network(path) "
                           f"or PolicyModel.load(path)), got {quote(model)}")
        super().__init__(model, seed, name if name is not None else
                         f"policy:{Path(str(model.info.get('file', 'model'))).name}")

    @property
    def model(self) -> CardNetwork:
        return self.network

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "PolicyBot":
        """A PolicyBot playing the model saved at `path`."""
        return cls(PolicyModel.load(path), name=f"policy:{Path(path).name}")


def legal_mask(values: np.ndarray, not_legal: Any) -> np.ndarray:
    """Which cards of each label row are legal: `values` is a per-card column of the labels
    (`values`, or `sd_values` with NaN for the cards not legal)."""
    values = np.asarray(values)
    legal: np.ndarray = ~np.isnan(values) if values.dtype.kind == "f" else values != not_legal
    return legal


__all__ = ["PolicyBot", "PolicyModel", "canonical", "canonical_cards", "real_cards",
           "suit_renaming", "trumps_of", "legal_mask"]
