"""A card network: a value for each card, from what the seat to move sees, computed with NumPy
alone (no training library is needed to play). Trained from the labels by `klaverjas train`
(`solver.training`); played by the `learned` bot; the shipped one is `default_network()`.

- `CardNetwork`: the layers, `scores(x) -> (rows, 32)` for `encode.observation` rows, `save`
  and `load` (`solver.network.card_network`).
- `load_network(path)`, `default_network()`: a saved network, and the one in the package.
- `canonical`, `real_cards`, ...: the trump-first picture the network sees
  (`solver.network.suits`).

>>> import numpy as np
>>> from solver import Deal, Game, encode
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> values = default_network().scores(encode.observation(game, "E"))[0]
>>> best = max(game.legal_cards(), key=lambda card: values[card.index])
>>> best in game.legal_cards()
True
"""
from .card_network import (FORMAT, FORMAT_1, SHIPPED, CardNetwork, default_network,
                           load_network)
from .suits import (SIDE_SUIT_RENAMINGS, canonical, canonical_cards, real_cards, suit_renaming,
                    trumps_of)

__all__ = ["CardNetwork", "load_network", "default_network", "FORMAT", "FORMAT_1", "SHIPPED",
           "SIDE_SUIT_RENAMINGS", "canonical", "canonical_cards", "real_cards", "suit_renaming",
           "trumps_of"]
