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

from conftest import example_counts, junk_raises_only_solver_errors
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
DOCUMENTED = re.compile(rf"random|rule|dd|learned|pimc:[0-9]+(?:@{NUMBER})?(?:~{NUMBER})?"
                        rf"|alphamu:[0-9]+:[0-9]+"
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
              st.sampled_from(["random", "rule", "dd", "pimc", "alphamu", "learned", "policy",
                               "openspiel", "openspiel:ismcts", "ismcts", "PIMC", ""]),
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


# -- every public function of the bots, the arena and the integrations, fed junk -------------

def _bounded(value, most):
    """`value`, or a number just out of range in place of a large one that would be taken: junk
    must not start an arena of millions of deals."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 2 < value <= most:
        return most + 1
    return value


def _arena(team_a, team_b, deals, seed, rules, sd_worlds):
    from solver.model.worlds import MOST_WORLDS
    from solver.arena import play_arena
    from solver.arena.run import MOST_DEALS
    return play_arena(team_a, team_b, _bounded(deals, MOST_DEALS), seed, rules, 1,
                      _bounded(sd_worlds, MOST_WORLDS))


def _calls(tmp_path):
    """(name, function, good arguments) of every public call of these layers."""
    from solver import Solver
    from solver.arena import play_table
    from solver.bots import AlphaMuBot, DDBot, PIMCBot, RandomBot, RuleBot, seat_view
    from solver.bots.alphamu import card_totals
    from solver.bots.policy import PolicyBot
    game = Game(Deal.random(1), "H", "E", "NS")
    late = Game(Deal.random(1), "H", "E", "NS")
    for _ in range(24):
        late.play(late.legal_cards()[0])
    model = PolicyModel.initial(hidden=2)
    model.save(tmp_path / "m.npz")
    calls = [
        ("make_bot", make_bot, ["rule"]),
        ("RandomBot", RandomBot, [1]), ("RuleBot", RuleBot, [1]),
        ("DDBot", DDBot, [1, "points", None]),
        ("PIMCBot", PIMCBot, [2, 1, None, "points", 1, None]),
        ("AlphaMuBot", AlphaMuBot, [2, 2, 1, 3]),
        ("card_totals", card_totals, [late, [late.deal], 2, Solver(table_mb=1)]),
        ("PolicyBot", PolicyBot, [model, 1, None]),
        ("PolicyBot.load", PolicyBot.load, [tmp_path / "m.npz"]),
        ("PolicyModel", PolicyModel, [model.w1, model.b1, model.w2, model.b2, None]),
        ("PolicyModel.initial", PolicyModel.initial, [2, 0]),
        ("PolicyModel.load", PolicyModel.load, [tmp_path / "m.npz"]),
        ("PolicyModel.scores", model.scores, [encode.observation(game, "E")]),
        ("Bot.act", RandomBot(1).act, [game, "E"]), ("Bot.reset", RandomBot(1).reset, [3]),
        ("seat_view", seat_view, [game, "E"]),
        ("play_arena", _arena, ["random", "random", 1, 0, None, 0]),
        ("play_table", play_table, [Deal.random(2), "H", "E", "NS",
                                    [RandomBot(s) for s in range(4)], Solver(table_mb=1), 0, 0]),
    ]
    try:
        import solver.openspiel as spiel
        from solver.pettingzoo import env, raw_env
    except ImportError:
        return calls
    return calls + [
        ("openspiel.load_game", spiel.load_game, ["amsterdam", "chance"]),
        ("openspiel.parse_rules", spiel.parse_rules, ["amsterdam"]),
        ("KlaverjasGame", lambda rules, bidding, dd: spiel.KlaverjasGame(
            {"rules": rules, "bidding": bidding, "use_double_dummy_result": dd}),
         ["amsterdam", "chance", False]),
        ("state_from_game", spiel.state_from_game, [game, None]),
        ("ismcts_bot", spiel.ismcts_bot, [1, 2, 300.0, 1]),
        ("OpenSpielBot", spiel.OpenSpielBot, [lambda g, r: None, "x", 1]),
        ("PyspielBot", spiel.PyspielBot, [RuleBot(), 0]),
        ("plays_turned", spiel.plays_turned, [list(game.hands[0]), "H"]),
        ("pettingzoo.env", env, ["amsterdam", None, False, None]),
        ("pettingzoo.raw_env", lambda r, b, d: raw_env(rules=r, bidding=b,
                                                        use_double_dummy_result=d),
         ["amsterdam", None, False]),
    ]


JUNK = [None, 1.5, float("nan"), float("inf"), 10 ** 30, -1, 0, "", "junk", "N", "H", "NS",
        "\x00", [], [1, 2], ["HA"], {}, {"a": 1}, b"x", np.array([1, 2]), np.int64(3),
        np.float64(2.5), np.array("H"), object(), True, (1, 2, 3)]
junk = st.sampled_from(JUNK) | st.integers() | st.text(max_size=12) | st.floats()


@pytest.mark.parametrize("examples", example_counts(200, 20))
def test_every_public_function_of_the_bots_and_integrations_fed_junk_raises_solver_errors(
        examples, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)        # a junk path names a file here, if anywhere
    calls = _calls(tmp_path)

    junk_raises_only_solver_errors(calls, junk, max_examples=examples,
                                   derandomize=examples < 1000, **QUICK)
