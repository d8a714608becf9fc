"""Junk fed to the bots, the OpenSpiel game and the PettingZoo environment: bot names, policy
files, actions and steps. Whatever the input, it is taken as documented or refused with the
package's own error naming it, never a traceback of another kind, and never taken silently.

The default run keeps each property short; `python -m pytest -m slow` runs them at length.
"""
import io
import re
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import example_counts
from solver import Deal, Game, encode
from solver.arena import make_bot
from solver.bots import Bot
from solver.bots.policy import PolicyModel
from solver.cli import main
from solver.errors import ActionError, BotError, NotationError

QUICK = dict(deadline=None, suppress_health_check=list(HealthCheck))

# -- bot names --------------------------------------------------------------------------------

# What the documented names are (solver.arena.names): anything make_bot takes must be one.
NUMBER = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
DOCUMENTED = re.compile(rf"random|rule|dd|pimc:[0-9]+(?:@{NUMBER})?(?:~{NUMBER})?"
                        rf"|openspiel:ismcts(?::[0-9]+)?|solver\.bots:\w+")
# Modules a name may point at: only these are ever imported (an arbitrary module name could
# run anything on import).
MODULES = ["solver.bots", "json", "no_such_module_here", "solver.bots.nothing"]
CLASSES = ["RuleBot", "RandomBot", "DDBot", "PIMCBot", "Bot", "seat_view", "JSONDecoder",
           "Nothing", "PolicyBot", "x"]
tails = (st.lists(st.sampled_from(["8", "0", "25", "²", "٣", "@", "~", ".", " ", "+", "-", "e",
                                   "_", "inf", "nan", ":", "x", "0.5"]), max_size=5).map("".join)
         | st.text(alphabet="0123456789²٣.@~:-+eE xinf", max_size=10))
numbers = st.sampled_from(["8", "0", "1", " 1", "1 ", "1_0", "٣", "²", "+1", "-1", "1e-3", ".5",
                          "5.", "inf", "nan", "", "0x10", "1e999", "08"])
pimc_names = st.builds(lambda worlds, at, budget, tilde, margin:
                       f"pimc:{worlds}{at}{budget if at else ''}{tilde}{margin if tilde else ''}",
                       numbers, st.sampled_from(["", "@"]), numbers, st.sampled_from(["", "~"]),
                       numbers)
bot_names = (
    pimc_names
    | st.builds(lambda n: f"openspiel:ismcts:{n}", numbers) |
    st.builds(lambda kind, sep, tail: kind + sep + tail,
              st.sampled_from(["random", "rule", "dd", "pimc", "policy", "openspiel",
                               "openspiel:ismcts", "ismcts", "PIMC", ""]),
              st.sampled_from(["", ":", "::", "@", " "]), tails)
    | st.builds(lambda module, cls: f"{module}:{cls}", st.sampled_from(MODULES),
                st.sampled_from(CLASSES))
    | st.text(alphabet=st.characters(blacklist_characters=":"), max_size=12)
)


@pytest.mark.parametrize("examples", example_counts(300))
def test_a_bot_name_gives_a_documented_bot_or_a_bot_error(examples):
    @settings(max_examples=examples, **QUICK)
    @given(bot_names | st.none() | st.integers() | st.lists(st.text(max_size=3), max_size=2))
    def check(name):
        try:
            bot = make_bot(name)
        except BotError:
            return
        assert isinstance(name, str) and DOCUMENTED.fullmatch(name), name
        assert isinstance(bot, Bot)
    check()


@pytest.mark.parametrize("examples", example_counts(20))
def test_a_bad_bot_name_on_the_command_line_is_one_line_naming_the_option(examples):
    @settings(max_examples=examples, **QUICK)
    @given(bot_names.filter(lambda name: not DOCUMENTED.fullmatch(name)))
    def check(name):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = main(["arena", "--team-a", name, "--team-b", "rule", "--deals", "1",
                           "--workers", "2", "--quiet"])
        assert status == 2 and out.getvalue() == "", (name, err.getvalue())
        assert err.getvalue().startswith("klaverjas: error: argument --team-a: ")
        assert err.getvalue().count("\n") == 1
    check()


# -- policy files -----------------------------------------------------------------------------

def good_arrays():
    model = PolicyModel.initial(hidden=3, seed=1)
    return dict(w1=model.w1, b1=model.b1, w2=model.w2, b2=model.b2,
                meta=np.array(["klaverjas-policy-mlp-1", "[]"]))


junk_arrays = st.sampled_from([
    None, np.zeros(0), np.zeros(3), np.zeros(32), np.zeros((encode.SIZE, 3)),
    np.zeros((3, 32)), np.zeros((3, 32, 1)), np.zeros((encode.SIZE + 1, 3)), np.array("x"),
    np.full(3, "x"), np.full(32, np.nan), np.full(32, np.inf), np.ones(32, bool),
    np.arange(32), np.zeros((1, 32)), np.array(["klaverjas-policy-mlp-1"]),
    np.array([], dtype=str), np.zeros(2), np.array(["klaverjas-policy-mlp-2", ""]),
    np.array([["klaverjas-policy-mlp-1"]]), np.zeros(32, np.complex64)])


@st.composite
def policy_files(draw):
    """The bytes of a policy file: a good one with arrays replaced or left out, or cut short,
    or bytes that are no file of NumPy's at all."""
    arrays = good_arrays()
    for name in draw(st.sets(st.sampled_from(sorted(arrays)), max_size=3)):
        arrays[name] = draw(junk_arrays)
    buffer = io.BytesIO()
    np.savez(buffer, **{k: v for k, v in arrays.items() if v is not None})
    data = buffer.getvalue()
    how = draw(st.sampled_from(["whole", "whole", "cut", "bytes"]))
    if how == "cut":
        return data[:draw(st.integers(0, len(data)))]
    if how == "bytes":
        return draw(st.binary(max_size=64))
    return data


@pytest.mark.parametrize("examples", example_counts(150))
def test_a_policy_file_gives_a_working_model_or_a_bot_error_naming_it(examples, tmp_path):
    path = tmp_path / "model.npz"
    game = Game(Deal.random(1), "H", "E", "NS")
    x = encode.observation(game, "E")

    @settings(max_examples=examples, **QUICK)
    @given(policy_files())
    def check(data):
        path.write_bytes(data)
        try:
            model = PolicyModel.load(path)
        except BotError as err:
            assert "policy file" in str(err) and "model.npz" in str(err)
            return
        scores = model.scores(x)
        assert scores.shape == (1, 32) and np.isfinite(scores).all()
    check()


# -- OpenSpiel actions ------------------------------------------------------------------------

CONFIGS = [{}, {"bidding": "draaikaart"}, {"use_double_dummy_result": True},
           {"bidding": "draaikaart", "use_double_dummy_result": True}]


def openspiel_game():
    """pyspiel, with the klaverjas game registered; the test is skipped without OpenSpiel."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("solver.openspiel")
    import pyspiel
    return pyspiel


# Any action a caller may try: C++ refuses -1 (kInvalidAction) itself; the game the rest.
actions = st.integers(-10, 60).filter(lambda a: a != -1) | st.integers(2**31, 2**40)


@pytest.mark.parametrize("examples", example_counts(40))
def test_an_openspiel_action_is_applied_when_allowed_and_refused_otherwise(examples):
    pyspiel = openspiel_game()
    @settings(max_examples=examples, **QUICK)
    @given(st.sampled_from(CONFIGS), st.integers(0, 2**32 - 1), st.data())
    def check(params, seed, data):
        state = pyspiel.load_game("klaverjas", params).new_initial_state()
        rng = np.random.RandomState(seed)
        while not state.is_terminal():
            allowed = ([o for o, _ in state.chance_outcomes()] if state.is_chance_node()
                       else state.legal_actions())
            action = data.draw(actions | st.sampled_from(allowed), label="action")
            if 0 <= action < 2**31 and action in allowed:
                state.apply_action(action)
                continue
            before = state.history()
            with pytest.raises((ActionError, TypeError)) as refused:
                state.apply_action(action)
            # an int too large for C++ is refused by pybind11 (a TypeError), before the game
            assert refused.type is ActionError or action >= 2**31
            assert state.history() == before
            state.apply_action(int(rng.choice(allowed)))      # on with a legal one
        with pytest.raises(ActionError, match="the round is over"):
            state.apply_action(0)
    check()


@pytest.mark.parametrize("examples", example_counts(60))
def test_a_player_that_is_not_one_is_a_notation_error(examples):
    pyspiel = openspiel_game()
    state = pyspiel.load_game("klaverjas").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])

    @settings(max_examples=examples, **QUICK)
    @given(st.integers() | st.floats() | st.text(max_size=3) | st.none() | st.booleans())
    def check(player):
        for method in (state.observation_array, state.information_state, state.observation,
                       lambda p: state.resample_from_infostate(p, lambda: 0.5)):
            try:
                method(player)
            except NotationError:
                continue
            assert type(player) is int and 0 <= player <= 3, player
    check()


# -- PettingZoo steps ------------------------------------------------------------------------

junk_steps = (st.integers(-5, 40) | st.sampled_from([None, True, False, 1.0, "0", "N", [0],
                                                      np.array([0]), np.float64(3.0)]))


@pytest.mark.parametrize("examples", example_counts(30))
def test_a_pettingzoo_step_is_taken_when_legal_and_refused_otherwise(examples):
    pytest.importorskip("pettingzoo")
    from solver.pettingzoo import env as pettingzoo_env
    @settings(max_examples=examples, **QUICK)
    @given(st.sampled_from([{}, {"bidding": "draaikaart"}, {"use_double_dummy_result": True}]),
           st.integers(0, 2**32 - 1), st.data())
    def check(params, seed, data):
        table = pettingzoo_env(**params)
        table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"]).tolist()
            step = data.draw(junk_steps, label="step")
            agent_name = data.draw(st.sampled_from(["N", "E", "S", "W", "X", "", None, 0]),
                                   label="observed")
            try:
                table.observe(agent_name)
            except NotationError:
                assert agent_name not in ("N", "E", "S", "W")
            if type(step) in (int, np.int64) and step in legal:
                table.step(step)
                continue
            with pytest.raises(ActionError, match="may not take action"):
                table.step(step)
            table.step(int(rng.choice(legal)))
        raw = table.unwrapped
        with pytest.raises(ActionError, match="the round is over"):
            raw.step(0)
    check()
