"""Klaverjas as a PettingZoo AEC environment, on the OpenSpiel game (`solver.openspiel`).

The agents are the seats "N", "E", "S", "W"; the one to act is `agent_selection` (the trick's
winner leads the next, so turns do not simply go round). An observation is a dict:
"observation", `solver.encode`'s array for that seat, and "action_mask", 1 for each legal
action of the seat to act (all zero for the others). Actions are the OpenSpiel game's: 0..31
play the card with that index, 32 passes and 33 plays under draaikaart bidding. Chance (the
deal, the dealer, trump) is drawn from the environment's stream, seeded by `reset(seed)`.
Rewards come at the end of the round: each seat's team score minus the other team's.

With `use_double_dummy_result` the round ends once trump is set, so the seats act only in a
draaikaart bidding: that is the bidding such an environment takes (and its default), since
under chance bidding no seat would ever act.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import encode
from ..errors import ActionError, NotationError, SolverError, choice, quote
from ..model.cards import Seat
from ..model.rules import RulesLike
from ..openspiel.game import BIDDINGS, NAME, NUM_ACTIONS, KlaverjasState, parse_rules, rules_text

AGENTS = [seat.name for seat in Seat]
RENDER_MODES = ("human", "ansi")


class KlaverjasEnv(AECEnv):  # type: ignore[misc]  # PettingZoo has no types
    """The raw environment; `env(...)` wraps it in PettingZoo's order checks."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "klaverjas_v0",
                "is_parallelizable": False}

    def __init__(self, rules: RulesLike = "amsterdam", bidding: Optional[str] = None,
                 use_double_dummy_result: bool = False,
                 render_mode: Optional[str] = None) -> None:
        super().__init__()
        if render_mode is not None:
            choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.game = pyspiel.load_game(NAME, {
            "rules": rules_text(parse_rules(rules)),
            "bidding": _bidding(bidding, _flag(use_double_dummy_result)),
            "use_double_dummy_result": use_double_dummy_result})
        self.possible_agents = list(AGENTS)
        self.agents: List[str] = []
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (encode.SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})
        self.observation_spaces = {agent: observation for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self.np_random, _ = seeding.np_random(None)
        self.state: Optional[KlaverjasState] = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: Dict[str, Dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._advance()

    def _advance(self) -> None:
        """Draw the chance outcomes up to the next player; at the end, hand out the returns."""
        state = self._current()
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(self.np_random.choice(outcomes, p=probs)))
        if state.is_terminal():
            returns = state.returns()
            self.rewards = {agent: returns[i] for i, agent in enumerate(AGENTS)}
            self.terminations = {agent: True for agent in self.agents}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = AGENTS[state.current_player()]

    def _current(self) -> KlaverjasState:
        if self.state is None:
            raise ActionError("the klaverjas environment is not started: call reset() first")
        return self.state

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        state = self._current()
        if not (isinstance(agent, str) and agent in AGENTS):
            raise NotationError(f"unknown agent {quote(agent)}: the agents are "
                                f"{', '.join(AGENTS)}")
        player = AGENTS.index(agent)
        mask: np.ndarray = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not state.is_terminal() and state.current_player() == player:
            mask[state.legal_actions()] = 1
        return {"observation": state.observation_array(player), "action_mask": mask}

    def step(self, action: Any) -> None:
        state = self._current()
        if not self.agents:
            raise ActionError(f"the round is over: no agent may take action {quote(action)}; "
                              f"call reset() to play another")
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        legal = state.legal_actions()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) \
                or int(action) not in legal:
            raise ActionError(f"{self.agent_selection} may not take action {quote(action)}: "
                              f"legal are {' '.join(map(str, legal))} (see action_mask)")
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.rewards = {agent: 0.0 for agent in self.agents}
        state.apply_action(int(action))
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        text = str(self._current())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _bidding(bidding: Optional[str], use_double_dummy_result: bool) -> str:
    """The bidding: draaikaart with the double-dummy result, where it is the only part of the
    round the seats play (under chance bidding no seat would ever act), else as given
    (default chance)."""
    if bidding is None:
        return "draaikaart" if use_double_dummy_result else "chance"
    choice("bidding", bidding, BIDDINGS)
    if use_double_dummy_result and bidding == "chance":
        raise SolverError("use_double_dummy_result ends the round once trump is set, so with "
                          "bidding 'chance' no seat would ever act: use bidding 'draaikaart' "
                          "(the default with use_double_dummy_result)")
    return bidding


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise SolverError(f"use_double_dummy_result must be true or false, got {quote(value)}")
    return value


def raw_env(**settings: Any) -> KlaverjasEnv:
    """The environment without PettingZoo's wrappers."""
    return KlaverjasEnv(**settings)


def env(rules: RulesLike = "amsterdam", bidding: Optional[str] = None,
        use_double_dummy_result: bool = False, render_mode: Optional[str] = None) -> Any:
    """The klaverjas AEC environment, in PettingZoo's order-enforcing wrapper: `rules` a
    Rules, a preset name, a dict of options or their JSON; `bidding` "chance" or "draaikaart",
    as the OpenSpiel game (default: chance, and draaikaart with `use_double_dummy_result`,
    which takes no other).

    >>> e = env()
    >>> e.reset(seed=1)
    >>> seen = e.observe(e.agent_selection)
    >>> seen["observation"].shape, int(seen["action_mask"].sum()) >= 1
    ((720,), True)
    """
    return wrappers.OrderEnforcingWrapper(KlaverjasEnv(rules, bidding, use_double_dummy_result,
                                                       render_mode))
