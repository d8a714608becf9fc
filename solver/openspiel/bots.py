"""Bots across the two interfaces: an OpenSpiel bot at our table (`OpenSpielBot`, and
`ISMCTSBot`, OpenSpiel's information-set Monte Carlo tree search), and our `Bot` in OpenSpiel
(`PyspielBot`, for `evaluate_bots` and anything else that takes a `pyspiel.Bot`).

>>> from solver import Deal, Game
>>> game = Game(Deal.random(1), "H", "E", "NS")
>>> ismcts_bot(seed=1, simulations=10).act(game, "E") in game.legal_cards()
True
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..bots.bot import Bot, check_name
from ..errors import SolverError, choice, quote, whole_number
from ..model.cards import Card, CardsLike, Rank, Seat, Suit, SuitLike, parse_cards
from ..model.game import Game, check_game
from ..model.rules import Rules, RulesLike
from .game import BIDDINGS, NAME, PASS, PLAY, KlaverjasGame, KlaverjasState, parse_rules, rules_text

# Builds an OpenSpiel bot for a game, drawing its randomness from the NumPy stream given.
BotFactory = Callable[[Any, np.random.RandomState], Any]


def load_game(rules: RulesLike = "amsterdam", bidding: str = "chance") -> Any:
    """The OpenSpiel klaverjas game for `rules` (a Rules, a preset name, a dict of options or
    their JSON)."""
    return pyspiel.load_game(NAME, {"rules": rules_text(parse_rules(rules)),
                                    "bidding": choice("bidding", bidding, BIDDINGS)})


def state_from_game(game: Game, spiel_game: Optional[Any] = None) -> KlaverjasState:
    """The OpenSpiel state of a `Game` at its position (in a game whose trump and playing team
    are drawn by chance, `bidding="chance"`): the same deal, trump, leader (so the dealer is
    the seat before it), playing team and cards played."""
    check_game(game)
    if spiel_game is not None and not isinstance(spiel_game, KlaverjasGame):
        raise SolverError(f"state_from_game needs a klaverjas game (load_game(rules)) or None, "
                          f"got {quote(spiel_game)}")
    spiel_game = spiel_game if spiel_game is not None else load_game(game.rules)
    state = spiel_game.new_initial_state()
    for k in range(32):
        state.apply_action(game.deal[Seat(k % 4)][k // 4].index)
    state.apply_action(int(Seat((game.leader - 1) % 4)))         # the dealer
    if game.trump is None:
        raise SolverError("klaverjas in OpenSpiel plays the trump game: this round is ledig "
                          "without trump")
    state.apply_action(int(game.trump) * 2 + int(game.playing))
    for card in game.played:
        state.apply_action(card.index)
    return state


class OpenSpielBot(Bot):
    """Any OpenSpiel bot at our table: `make(spiel_game, random_state)` builds it for the
    game's rules, seeded from this bot's seed at each `reset`. The bot is shown the round
    as its seat sees it and asked for a card (`step`)."""

    def __init__(self, make: BotFactory, name: str = "openspiel",
                 seed: Optional[int] = None) -> None:
        if not callable(make):
            raise SolverError(f"OpenSpielBot needs a function (game, random_state) -> "
                              f"pyspiel.Bot, got {quote(make)}")
        self._make = make
        self.name = check_name(name)
        self._bots: Dict[Rules, Tuple[Any, Any]] = {}     # rules -> (OpenSpiel game, its bot)
        super().__init__(seed)

    def reset(self, seed: Optional[int] = None) -> None:
        super().reset(seed)
        self.random_state = np.random.RandomState(self.seed % 2**32)
        self._bots = {}

    def __getstate__(self) -> Dict[str, Any]:
        # The OpenSpiel games and bots cannot be copied or pickled: a copy (for another seat,
        # another process) builds its own on its first move.
        return {**self.__dict__, "_bots": {}}

    def choose(self, game: Game, seat: Seat) -> Card:
        if game.rules not in self._bots:
            spiel_game = load_game(game.rules)
            self._bots[game.rules] = spiel_game, self._make(spiel_game, self.random_state)
        spiel_game, bot = self._bots[game.rules]
        action = int(bot.step(state_from_game(game, spiel_game)))
        if not 0 <= action < 32:
            raise SolverError(f"{self.name} answered action {action}, which is not a card")
        return Card.from_index(action)


class ISMCTSBot(OpenSpielBot):
    """OpenSpiel's IS-MCTS (`open_spiel.python.algorithms.ismcts`) with random rollouts:
    `simulations` searches per card, each from a world drawn by `resample_from_infostate`
    (so by `sample_worlds`, seeded from this bot's stream). Returns are in points (a round is
    worth about 162), so `uct_c`, the exploration constant, is in points too."""

    def __init__(self, seed: Optional[int] = None, simulations: int = 100, uct_c: float = 300.0,
                 rollouts: int = 1) -> None:
        self.simulations = whole_number("ISMCTSBot simulations", simulations, 1, 1_000_000)
        self.rollouts = whole_number("ISMCTSBot rollouts", rollouts, 1, 10_000)
        if isinstance(uct_c, bool) or not isinstance(uct_c, (int, float)) or not uct_c >= 0:
            raise SolverError(f"ISMCTSBot uct_c must be a number of at least 0, got {quote(uct_c)}")
        self.uct_c = float(uct_c)
        super().__init__(self._build, f"openspiel:ismcts:{self.simulations}", seed)

    def _build(self, spiel_game: Any, random_state: np.random.RandomState) -> Any:
        evaluator = mcts.RandomRolloutEvaluator(self.rollouts, random_state)
        bot = ismcts.ISMCTSBot(spiel_game, evaluator, self.uct_c, self.simulations,
                               random_state=random_state)

        def resample(state: KlaverjasState, player: int) -> KlaverjasState:
            return state.resample_from_infostate(player, random_state.random_sample)

        bot.set_resampler(resample)
        return bot


def ismcts_bot(seed: Optional[int] = None, simulations: int = 100, uct_c: float = 300.0,
               rollouts: int = 1) -> ISMCTSBot:
    """OpenSpiel's IS-MCTS as one of our bots: what the arena seats for `openspiel:ismcts`."""
    return ISMCTSBot(seed, simulations, uct_c, rollouts)


def plays_turned(hand: CardsLike, turned: SuitLike) -> bool:
    """A plain draaikaart bid: play the turned suit with its jack and one more trump, its
    nine and two more, or any four trumps; else pass. `hand`: Cards or their notation."""
    turned = Suit.parse(turned)
    trumps = {card.rank for card in parse_cards(hand) if card.suit == turned}
    return (Rank.JACK in trumps and len(trumps) >= 2) or \
        (Rank.NINE in trumps and len(trumps) >= 3) or len(trumps) >= 4


class PyspielBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel has no types
    """One of our bots as a `pyspiel.Bot` in the klaverjas game, so it can play in OpenSpiel's
    `evaluate_bots` and against any OpenSpiel bot. It plays the cards with `bot.act`; under
    draaikaart bidding it bids with `bid(hand, turned) -> bool` (default `plays_turned`).
    `restart_at` reseeds the bot, `seed` first and one more for each round after it."""

    def __init__(self, bot: Bot, seed: int = 0,
                 bid: Callable[[List[Card], Suit], bool] = plays_turned) -> None:
        pyspiel.Bot.__init__(self)
        if not isinstance(bot, Bot):
            raise SolverError(f"PyspielBot needs one of our bots (a solver.bots.Bot), got "
                              f"{quote(bot)}")
        self.bot = bot
        self.bid = bid
        self._seed = whole_number("seed", seed, 0)
        self._rounds = 0

    def step(self, state: KlaverjasState) -> int:
        if state.round is None:
            seat = Seat(state.current_player())
            assert state.turned is not None
            return PLAY if self.bid(state.hand(seat), state.turned) else PASS
        return self.bot.act(state.round, state.round.to_move).index

    def restart_at(self, state: KlaverjasState) -> None:
        self.bot.reset(self._seed + self._rounds)
        self._rounds += 1

    def inform_action(self, state: KlaverjasState, player_id: int, action: int) -> None:
        pass    # our bots read the whole round at each move
