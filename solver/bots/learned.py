"""LearnedBot: plays the legal card a card network (`solver.network`) scores highest, with
NumPy alone. By default the network shipped in the package (`default_network()`, the arena's
`learned`); any file `klaverjas train` wrote plays as `learned:PATH`.

Its only input is `solver.encode.observation(game, seat)`, what the seat sees. It plays only
the contract its network learnt from: a network trained on trump rounds refuses a ledig round
(and the other way round) with a BotError naming both, rather than play a game it never saw.
A network whose info does not say (one made in Python) plays every round.

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> LearnedBot().act(game, "E") in game.legal_cards()
True
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional, Union

from .. import encode
from ..errors import BotError, quote
from ..model.cards import Card, Seat
from ..model.game import Game
from ..network import CardNetwork, default_network, load_network
from .bot import Bot, check_name


class LearnedBot(Bot):
    """Plays the legal card its network scores highest (the first in card order on a tie)."""

    def __init__(self, network: Optional[CardNetwork] = None, seed: Optional[int] = None,
                 name: Optional[str] = None) -> None:
        if network is None:
            network, name = default_network(), name or "learned"
        if not isinstance(network, CardNetwork):
            raise BotError(f"{type(self).__name__} needs a CardNetwork "
                           f"(solver.network.load_network(path)), got {quote(network)}")
        self.network = network
        self.name = check_name(name) if name is not None else \
            f"learned:{Path(str(network.info.get('file', 'network'))).name}"
        self.contract = _learnt_contract(network)
        super().__init__(seed)

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "LearnedBot":
        """A LearnedBot playing the network saved at `path` (`learned:PATH` in the arena)."""
        return cls(load_network(path), name=f"learned:{Path(path).name}")

    def choose(self, game: Game, seat: Seat) -> Card:
        if self.contract is not None and game.rules.contract != self.contract:
            raise BotError(f"{self.name} plays {self.contract} rounds, the contract its "
                           f"network was trained on, not a {game.rules.contract} round: "
                           f"train one on labels of {game.rules.contract} rounds (klaverjas "
                           f"labels --rules ...; klaverjas train)")
        scores = self.network.scores(encode.observation(game, seat))[0]
        return max(game.legal_cards(), key=lambda c: (float(scores[c.index]), -c.index))


def _learnt_contract(network: CardNetwork) -> Optional[str]:
    """The contract of the labels `network` was trained on, as its info records it; None
    when it does not say."""
    labels: Any = network.info.get("labels")
    rules = labels.get("rules") if isinstance(labels, dict) else None
    contract = rules.get("contract") if isinstance(rules, dict) else None
    return contract if isinstance(contract, str) else None


__all__ = ["LearnedBot"]
