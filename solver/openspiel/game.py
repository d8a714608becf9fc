"""Klaverjas as an OpenSpiel game, played by the package's own `Game` (one copy of the rules).

Players 0..3 are the seats N E S W. Chance deals the 32 cards one at a time (card k of the
deal to seat k mod 4), then draws the dealer; the leader of trick 1 sits left of the dealer.
Trump and the playing team are then set by the `bidding` parameter:

- "chance": one chance draw of 8 outcomes, `trump * 2 + team` (trump C D H S, team NS EW);
- "draaikaart": chance turns a suit, then from left of the dealer each seat passes or plays
  it (the model's `Draaikaart` procedure without its second round, `solver.model.bidding`):
  the first seat to play makes its team the playing team; when all four pass, left of the
  dealer must play.

Actions: 0..31 play the card with that index (`Card.index`, suit * 8 + rank), 32 passes and 33
plays the turned suit. Chance outcomes of the deal are card indices too. An action not among
`legal_actions()`, or at a chance node not among `chance_outcomes()`, is an `ActionError`.
The returns are the final scores of the round (`final_scores` under the rules), made
zero-sum: each player gets its team's score minus the other team's, so the four returns add
up to 0.

With `use_double_dummy_result` the round ends as soon as trump is set, scored by the exact
double-dummy value of the round (the solver's "score" objective), as OpenSpiel's bridge does.

`belief` sets how `resample_from_infostate` draws the hidden cards: "uniform" (the default),
every deal the player cannot rule out alike, or "play", in proportion to how likely the other
players' cards so far, and their draaikaart calls, were in each (`solver.analysis.beliefs`).
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import pyspiel

from .. import encode
from ..analysis.beliefs import sample_worlds
from ..engine.search import Solver
from ..errors import ActionError, NotationError, RulesError, SolverError, choice, quote, \
    shorten, whole_number
from ..model.bidding import Draaikaart
from ..model.worlds import BELIEFS
from ..model.cards import CARD_POINTS_TOTAL, Card, Seat, Suit, Team
from ..model.deal import Deal
from ..model.game import Game
from ..model.rules import (RULE_PRESETS, Rules, RulesLike, check_rules,
                           require_four_player_trump)
from ..model.scoring import final_scores

NAME = "klaverjas"
BIDDINGS = ("chance", "draaikaart")
PASS = 32
PLAY = 33
NUM_ACTIONS = 34
DEFAULTS: Dict[str, Any] = {"rules": "amsterdam", "bidding": "chance",
                            "use_double_dummy_result": False, "belief": "uniform"}

_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Klaverjas",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def parse_rules(value: RulesLike) -> Rules:
    """The `rules` parameter: a preset name ("amsterdam", "rotterdam") or a JSON object of
    Rules options ('{"undertrump": "must"}'). In a game string, where commas separate the
    parameters, the JSON's commas are written as semicolons, as `rules_text` writes them:
    'klaverjas(rules={"roem": "hand"; "undertrump": "must"})'. Where Python passes the value
    itself (`KlaverjasGame({"rules": ...})`, `load_game`, the PettingZoo environment), a dict
    of options or a `Rules` does as well; OpenSpiel's own `pyspiel.load_game` takes strings
    only.

    >>> parse_rules({"roem": "hand"}) == parse_rules('{"roem": "hand"}') == Rules(roem="hand")
    True
    """
    if isinstance(value, str) and value.strip().lower() not in RULE_PRESETS:
        try:
            # No option value holds a semicolon, so each one stands for a comma.
            value = json.loads(value.replace(";", ","))
        except ValueError:
            raise RulesError(f"klaverjas rules {quote(value)} is neither a preset "
                             f"({', '.join(RULE_PRESETS)}) nor a JSON object of options") from None
        if not isinstance(value, dict):
            raise RulesError(f"klaverjas rules must be a preset name or a JSON object of "
                             f"options, got the JSON {quote(value)}")
    return require_four_player_trump(check_rules(value), "klaverjas in OpenSpiel")


def rules_text(rules: Rules) -> str:
    """The `rules` parameter that gives `rules`: a preset name when it is one, else the JSON of
    the options that differ from the defaults, with semicolons for commas (a game string
    separates its parameters by commas).

    >>> rules_text(Rules.rotterdam()), rules_text(Rules(roem="hand", undertrump="must"))
    ('rotterdam', '{"roem": "hand"; "undertrump": "must"}')
    """
    for name, preset in RULE_PRESETS.items():
        if preset() == rules:
            return name
    default = Rules().to_dict()
    changed = {k: v for k, v in sorted(rules.to_dict().items()) if v != default[k]}
    return json.dumps(changed, separators=("; ", ": "))


def utility_bound(rules: Rules) -> int:
    """A bound on a team's final score, and so on any return: every card point at its highest
    multiple, all the roem the rules can give, the pit and zero bonuses."""
    most_four = max((value for _, value in rules.four_of_a_kind), default=0)
    roem = {"table": 8 * max(most_four, 70),          # per trick: four of a kind, or run + stuk
            "hand": 4 * (2 * most_four + 220),        # per hand: two fours, runs, stuk
            "none": 0}[rules.roem]
    return CARD_POINTS_TOTAL * rules.multiplier * 2 + roem + rules.pit_bonus + rules.zero_bonus


class KlaverjasGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types
    """The OpenSpiel game; `pyspiel.load_game("klaverjas", {...})` makes one."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        unknown = [name for name in params if name not in DEFAULTS]
        if unknown:
            raise SolverError(f"unknown klaverjas parameter {quote(unknown[0])}: the parameters "
                              f"are {', '.join(DEFAULTS)}")
        settings = {**DEFAULTS, **params}
        self.rules = parse_rules(settings["rules"])
        self.bidding = choice("klaverjas bidding", settings["bidding"], BIDDINGS)
        if not isinstance(settings["use_double_dummy_result"], bool):
            raise SolverError(f"klaverjas use_double_dummy_result must be true or false, got "
                              f"{quote(settings['use_double_dummy_result'])}")
        self.use_double_dummy_result = settings["use_double_dummy_result"]
        self.belief = choice("klaverjas belief", settings["belief"], BELIEFS)
        bound = utility_bound(self.rules)
        setup = 1 if self.bidding == "chance" else 1 + 4
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=32,
            num_players=4,
            min_utility=-float(bound),
            max_utility=float(bound),
            utility_sum=0.0,
            max_game_length=32 + 1 + setup + (0 if self.use_double_dummy_result else 32))
        # The rules as one canonical text, so that the game's string loads the same game.
        super().__init__(_GAME_TYPE, info, {**params, "rules": rules_text(self.rules)})
        self._solver: Optional[Solver] = None

    def solver(self) -> Solver:
        """The game's Solver, made on first use (for `use_double_dummy_result`)."""
        if self._solver is None:
            self._solver = Solver(self.rules)
        return self._solver

    def new_initial_state(self) -> "KlaverjasState":
        return KlaverjasState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Optional[Dict[str, Any]] = None) -> "KlaverjasObserver":
        return KlaverjasObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class KlaverjasState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no types
    """A round in OpenSpiel: the deal so far, the dealer, the bidding, then a `Game`."""

    def __init__(self, game: KlaverjasGame) -> None:
        super().__init__(game)
        self._bidding = game.bidding
        self._use_dd = game.use_double_dummy_result
        # Card indices in dealing order: card k went to seat k % 4. (Plain numbers: a state is
        # copied often by search code, and numbers copy fastest.)
        self.dealt: List[int] = []
        self.dealer: Optional[Seat] = None
        self.bidding: Optional[Draaikaart] = None   # once chance turned a suit
        self.round: Optional[Game] = None    # once trump and the playing team are set
        self._dd_value: Optional[int] = None
        self._player = self._whose_turn()

    # -- where we are ------------------------------------------------------------------------

    @property
    def leader(self) -> Optional[Seat]:
        """The seat that leads trick 1: left of the dealer."""
        return None if self.dealer is None else self.dealer.left

    def hand(self, seat: Seat) -> List[Card]:
        """The cards `seat` holds now."""
        if self.round is not None:
            return sorted(self.round.hands[seat])
        return sorted(Card.from_index(index) for index in self.dealt[seat::4])

    def _dealt_hands(self) -> Deal:
        return Deal([[Card.from_index(i) for i in self.dealt[seat::4]] for seat in range(4)])

    @property
    def turned(self) -> Optional[Suit]:
        """The turned suit under draaikaart bidding, once chance turned it."""
        return None if self.bidding is None else self.bidding.turned

    @property
    def bids(self) -> List[Tuple[Seat, bool]]:
        """The draaikaart calls so far: (seat, whether it played the turned suit)."""
        return [] if self.bidding is None else \
            [(seat, suit is not None) for seat, suit in self.bidding.calls]

    def _bidder(self) -> Seat:
        assert self.bidding is not None
        seat = self.bidding.to_speak()
        assert seat is not None         # trump is not chosen while the bidding goes on
        return seat

    def current_player(self) -> int:
        # OpenSpiel asks this many times per move: it is worked out once per action.
        return self._player

    def _whose_turn(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.round is not None:
            return int(self.round.to_move)
        if len(self.dealt) < 32 or self.dealer is None or self._bidding == "chance" \
                or self.turned is None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(self._bidder())

    def is_terminal(self) -> bool:
        return self.round is not None and (self._use_dd or self.round.is_over)

    # -- moves -------------------------------------------------------------------------------

    def _legal_actions(self, player: int) -> List[int]:
        if self.round is not None:
            return [card.index for card in self.round.legal_cards()]
        return [PASS, PLAY]

    def chance_outcomes(self) -> List[Tuple[int, float]]:
        if len(self.dealt) < 32:
            left = sorted(set(range(32)) - set(self.dealt))
            return [(index, 1.0 / len(left)) for index in left]
        if self.dealer is None or self._bidding == "draaikaart":
            return [(outcome, 0.25) for outcome in range(4)]   # the dealer, or the turned suit
        return [(outcome, 0.125) for outcome in range(8)]       # trump * 2 + playing team

    def _allowed(self) -> List[int]:
        """The actions (or chance outcomes) that may be applied now."""
        if self.is_terminal():
            return []
        if self._player == pyspiel.PlayerId.CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        return self._legal_actions(self._player)

    def _phase(self) -> str:
        if self.is_terminal():
            return "the round is over"
        if self.round is not None:
            return f"{Seat(self._player)} plays a card"
        if len(self.dealt) < 32:
            return f"chance deals card {len(self.dealt) + 1} of 32"
        if self.dealer is None:
            return "chance draws the dealer"
        if self._bidding == "chance":
            return "chance draws trump and the playing team"
        if self.turned is None:
            return "chance turns a suit"
        return f"{self._bidder()} bids"

    def _apply_action(self, action: int) -> None:
        allowed = self._allowed()
        if action not in allowed:
            listed = shorten(" ".join(map(str, allowed)), 60) if allowed else "none"
            raise ActionError(f"klaverjas: action {quote(action)} is not allowed now "
                              f"({self._phase()}): allowed are {listed}")
        if self.round is not None:
            self.round.play(Card.from_index(action))
        elif len(self.dealt) < 32:
            self.dealt.append(Card.from_index(action).index)
        elif self.dealer is None:
            self.dealer = Seat(action)
        elif self._bidding == "chance":
            self._start(Suit(action // 2), Team(action % 2))
        elif self.bidding is None:
            self.bidding = Draaikaart(self.dealer, Suit(action), second_round=False)
        else:
            self.bidding.call(self.bidding.turned if action == PLAY else None)
            if self.bidding.chosen is not None:
                chooser, trump = self.bidding.chosen
                self._start(trump, chooser.team)
        self._player = self._whose_turn()

    def _start(self, trump: Suit, playing: Team) -> None:
        assert self.leader is not None
        self.round = Game(self._dealt_hands(), trump, self.leader, playing,
                          self.get_game().rules)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE and self.round is None:
            if len(self.dealt) < 32:
                return f"deal {Card.from_index(action)} to {Seat(len(self.dealt) % 4)}"
            if self.dealer is None:
                return f"dealer {Seat.parse(action)}"
            if self._bidding == "chance":
                if not 0 <= action < 8:
                    raise ActionError(f"klaverjas: chance outcome {quote(action)} does not draw "
                                      f"trump and the playing team: those are 0..7")
                return f"trump {Suit(action // 2)}, {Team(action % 2)} plays"
            return f"turned {Suit.parse(action)}"
        if action == PASS:
            return "pass"
        if action == PLAY:
            return "play"
        return str(Card.from_index(action))

    # -- the result --------------------------------------------------------------------------

    def returns(self) -> List[float]:
        if not self.is_terminal():
            return [0.0] * 4
        assert self.round is not None
        game = self.round
        if self._use_dd:
            if self._dd_value is None:
                solver = self.get_game().solver()
                self._dd_value = int(solver.value(game, "score"))
            ns = self._dd_value if game.playing == Team.NS else -self._dd_value
        else:
            scores = final_scores(game.tallies(), game.playing, game.trump, game.rules)
            ns = scores[Team.NS] - scores[Team.EW]
        return [float(ns if Seat(p).team == Team.NS else -ns) for p in range(4)]

    # -- what a player saw -------------------------------------------------------------------

    def observation_array(self, player: int) -> np.ndarray:
        """`solver.encode`'s observation of `player` (the information state tensor)."""
        seat = player_seat(player)
        if self.round is not None:
            return encode.observation(self.round, seat, self.turned, self.bids)
        to_move = self._bidder() if self.current_player() >= 0 else None
        return encode.bidding_observation(self.hand(seat), seat, self.leader, to_move,
                                          self.turned, self.bids)

    def information_state(self, player: int) -> str:
        """Everything `player` saw, in words: its hand, the dealer, the bidding, every trick."""
        seat = player_seat(player)
        lines = [self._seen_header(seat)]
        if self.bids:
            lines.append("bids: " + ", ".join(f"{s} {'play' if plays else 'pass'}"
                                              for s, plays in self.bids))
        if self.round is not None:
            for trick in self.round.tricks:
                cards = " ".join(f"{trick.seat_of(i)}:{c}" for i, c in enumerate(trick.cards))
                lines.append(f"trick {trick.number}: {cards}, won by {trick.winner}")
            if self.round.current_trick:
                lines.append(f"trick {self.round.trick_number}: {self._table()}")
        return "\n".join(lines)

    def observation(self, player: int) -> str:
        """What `player` sees now: its hand, the table, and the points taken so far."""
        lines = [self._seen_header(player_seat(player))]
        if self.round is not None and not self.round.is_over:
            lines.append(f"trick {self.round.trick_number}: {self._table() or '-'}")
        if self.round is not None:
            taken = ", ".join(f"{team} {self.round.taken(team)[0]}+{self.round.taken(team)[1]}"
                              for team in Team)
            lines.append(f"taken (points+roem): {taken}")
        return "\n".join(lines)

    def _seen_header(self, seat: Seat) -> str:
        hand = " ".join(str(card) for card in self.hand(seat)) or "-"
        parts = [f"seat {seat}", f"hand {hand}"]
        if self.dealer is not None:
            parts.append(f"dealer {self.dealer}")
        if self.turned is not None:
            parts.append(f"turned {self.turned}")
        if self.round is not None:
            parts.append(f"trump {self.round.trump}, {self.round.playing} plays")
        return "; ".join(parts)

    def _table(self) -> str:
        assert self.round is not None
        leader = self.round.trick_leader
        return " ".join(f"{Seat((leader + i) % 4)}:{card}"
                        for i, card in enumerate(self.round.current_trick))

    def __str__(self) -> str:
        hands = " / ".join(f"{seat}: {' '.join(str(c) for c in self.hand(seat))}" for seat in Seat)
        return "\n".join([hands] + self.information_state(0).split("\n")[1:])

    # -- worlds the player cannot tell apart -------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "KlaverjasState":
        """A state `player_id` cannot tell from this one: the other hands dealt anew by
        `sample_worlds`, consistent with every card played (the voids and trump ceilings it
        revealed), drawn with a seed from `probability_sampler` (a callable giving a number in
        [0, 1), as OpenSpiel's samplers are), under the game's `belief`."""
        seat = player_seat(player_id)
        if len(self.dealt) < 32 or self.dealer is None:
            raise SolverError("klaverjas: a state can be resampled once the cards are dealt")
        seed = int(_sample(probability_sampler) * 2**53)
        game = self.round if self.round is not None else \
            Game(self._dealt_hands(), Suit.C, self.dealer.left, Team.NS, self.get_game().rules)
        world = sample_worlds(game, seat, 1, seed=seed, belief=self.get_game().belief,
                              bidding=self.bidding)[0]
        others = {s: sorted(world[s]) for s in Seat if s != seat}
        dealt = [index if Seat(k % 4) == seat else others[Seat(k % 4)][k // 4].index
                 for k, index in enumerate(self.dealt)]
        state: KlaverjasState = self.get_game().new_initial_state()
        for index in dealt:
            state.apply_action(index)
        for action in self.history()[32:]:
            state.apply_action(action)
        return state


def player_seat(player: int) -> Seat:
    """The seat of OpenSpiel player `player` (0..3 are N E S W); NotationError otherwise."""
    return Seat(whole_number("a klaverjas player", player, 0, 3, error=NotationError))


def _sample(sampler: Any) -> float:
    """A number in [0, 1) from `sampler`, OpenSpiel's probability sampler."""
    if not callable(sampler):
        raise SolverError(f"klaverjas: the probability sampler must be a function giving a "
                          f"number in [0, 1), got {quote(sampler)}")
    value = sampler()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)) \
            or not 0 <= value < 1:
        raise SolverError(f"klaverjas: the probability sampler must give a number in [0, 1), "
                          f"it gave {quote(value)}")
    return float(value)


class KlaverjasObserver:
    """OpenSpiel's observer: the tensor is `solver.encode`'s array (its blocks in `dict`); the
    string is the information state with perfect recall, else the observation."""

    def __init__(self, iig_obs_type: Any, params: Optional[Dict[str, Any]]) -> None:
        if params:
            raise SolverError(f"klaverjas observers take no parameters, got {quote(params)}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER \
                or not iig_obs_type.public_info:
            raise SolverError("klaverjas observes for one player with public information "
                              "(private_info SINGLE_PLAYER, public_info True)")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(encode.SIZE, dtype=np.float32)
        self.dict = encode.unpack(self.tensor)

    def set_from(self, state: KlaverjasState, player: int) -> None:
        self.tensor[:] = state.observation_array(player)

    def string_from(self, state: KlaverjasState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state(player)
        return state.observation(player)


def register() -> None:
    """Register the game with OpenSpiel (once) so `pyspiel.load_game("klaverjas")` finds it."""
    if NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, KlaverjasGame)
