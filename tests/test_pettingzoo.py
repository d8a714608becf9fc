"""solver.pettingzoo: the AEC environment passes PettingZoo's own API test."""
import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from solver import encode  # noqa: E402
from solver.errors import SolverError  # noqa: E402
from solver.pettingzoo import env  # noqa: E402


# The agents are the seats N E S W, not PettingZoo's suggested "player_0"; the observation is
# a dict with the action mask, as in PettingZoo's own card games.
@pytest.mark.filterwarnings("ignore:We recommend agents to be named")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("settings", [{}, {"bidding": "draaikaart", "rules": "rotterdam"}])
def test_the_environment_passes_pettingzoos_api_test(settings):
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


def test_with_the_double_dummy_result_the_round_ends_after_trump_is_set():
    table = env(use_double_dummy_result=True)
    table.reset(seed=4)
    assert all(table.terminations.values())


def test_bad_settings_are_errors_naming_them():
    with pytest.raises(SolverError, match="bidding"):
        env(bidding="free")
    with pytest.raises(SolverError, match="render_mode"):
        env(render_mode="rgb_array")
