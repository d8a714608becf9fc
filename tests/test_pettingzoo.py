"""solver.pettingzoo: the AEC environment passes PettingZoo's own API test."""
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from solver import Rules, encode  # noqa: E402
from solver.errors import ActionError, NotationError, RulesError, SolverError  # noqa: E402
from solver.openspiel import PASS, PLAY  # noqa: E402
from solver.pettingzoo import env, raw_env  # noqa: E402


# The agents are the seats N E S W, not PettingZoo's suggested "player_0"; the observation is
# a dict with the action mask, as in PettingZoo's own card games.
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("bidding", [None, "chance", "draaikaart"])
@pytest.mark.parametrize("use_double_dummy_result", [False, True])
@pytest.mark.parametrize("rules", ["amsterdam", "rotterdam"])
def test_every_configuration_passes_pettingzoos_api_test(bidding, use_double_dummy_result, rules):
    settings = dict(bidding=bidding, use_double_dummy_result=use_double_dummy_result,
                    rules=rules)
    if bidding == "chance" and use_double_dummy_result:     # no seat would ever act
        with pytest.raises(SolverError, match="use bidding 'draaikaart'"):
            env(**settings)
        return
    api_test(env(**settings), num_cycles=200)


def play(table, seed):
    """A whole round with uniformly random legal actions; the seats' rewards and the actions."""
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, rewards = [], {}
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        rewards[agent] = rewards.get(agent, 0) + reward
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            actions.append(action)
        table.step(action)
    return actions, rewards


def test_a_round_ends_with_zero_sum_team_rewards():
    actions, rewards = play(env(), 1)
    assert len(actions) == 32 and all(0 <= a < 32 for a in actions)
    assert rewards["N"] == rewards["S"] == -rewards["E"] == -rewards["W"] != 0


def test_a_seed_repeats_the_round():
    assert play(env(bidding="draaikaart"), 5) == play(env(bidding="draaikaart"), 5)


def test_the_observation_is_the_encoders_array_and_the_mask_the_legal_actions():
    table = env()
    table.reset(seed=2)
    agent = table.agent_selection
    seen = table.observe(agent)
    state = table.unwrapped.state
    assert np.array_equal(seen["observation"],
                          encode.observation(state.round, state.round.to_move))
    assert np.flatnonzero(seen["action_mask"]).tolist() == state.legal_actions()
    other = next(a for a in table.agents if a != agent)
    assert not table.observe(other)["action_mask"].any()


def test_an_illegal_action_is_an_error_naming_the_legal_ones():
    table = env()
    table.reset(seed=3)
    illegal = int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(SolverError, match="may not take action"):
        table.step(illegal)


def test_with_the_double_dummy_result_the_seats_bid_and_the_round_ends_after_trump_is_set():
    table = env(use_double_dummy_result=True)
    table.reset(seed=4)
    assert not any(table.terminations.values())
    actions, rewards = play(table, 4)
    assert actions and set(actions) <= {PASS, PLAY} and len(actions) <= 4
    state = table.unwrapped.state
    assert state.is_terminal() and state.round.played == []
    assert rewards["N"] == rewards["S"] == -rewards["E"] == -rewards["W"]


@pytest.mark.parametrize("rules", [{"undertrump": "must", "pit_bonus": 50},
                                   Rules(undertrump="must", pit_bonus=50),
                                   '{"undertrump": "must", "pit_bonus": 50}'])
def test_rules_are_taken_as_rules_a_dict_or_json(rules):
    assert env(rules=rules).unwrapped.game.rules == Rules(undertrump="must", pit_bonus=50)
    with pytest.raises(RulesError, match="undertrump"):
        env(rules={"undertrump": "sometimes"})


def test_a_step_before_reset_is_named():
    with pytest.raises(ActionError, match="call reset\\(\\) first"):
        raw_env().step(0)
    with pytest.raises(ActionError, match="call reset\\(\\) first"):
        raw_env().observe("N")
    # the wrapper keeps PettingZoo's own order check, an AssertionError that says so
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
        env().step(0)
    # and docs/errors.md says which comes from where
    row = next(line for line in (Path(__file__).parents[1] / "docs" / "errors.md").read_text()
               .splitlines() if line.startswith("| `ActionError`"))
    assert "`raw_env()`" in row and "`AssertionError`" in row


@pytest.mark.parametrize("agent", ["X", "player_0", 0, None, "n"])
def test_an_agent_that_is_no_seat_is_named(agent):
    table = env()
    table.reset(seed=1)
    with pytest.raises(NotationError, match="unknown agent .*: the agents are N, E, S, W"):
        table.observe(agent)


def test_a_step_after_the_end_is_named():
    table = raw_env()
    play(table, 2)
    assert table.agents == []
    with pytest.raises(ActionError, match="the round is over: .*call reset\\(\\)"):
        table.step(0)


@pytest.mark.parametrize("action", [True, 1.0, "0", None, 99, -1, np.array([0])])
def test_an_action_that_is_no_legal_action_is_named(action):
    table = env()
    table.reset(seed=3)
    with pytest.raises(ActionError, match="may not take action"):
        table.step(action)


def test_bad_settings_are_errors_naming_them():
    with pytest.raises(SolverError, match="bidding"):
        env(bidding="free")
    with pytest.raises(SolverError, match="render_mode"):
        env(render_mode="rgb_array")
