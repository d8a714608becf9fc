"""Beliefs: worlds weighted by how likely the other players' plays (and bids) were. The weights
are the play model's probabilities, multiplied world by world as a plain loop would; they add
up to one, each above 0, reproducible by seed; the bidding weighs only where there was one."""
import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, positions, rules_strategy
from solver import Card, Deal, Game, Seat, SolverError, Suit, analyse_view, encode
from solver.analysis import beliefs
from solver.analysis.beliefs import (BidModel, PlayBelief, UniformBelief, belief_of,
                                     sample_worlds, weighted_worlds)
from solver.analysis.view import ViewAnalysis
from solver.bots.policy import PolicyModel
from solver.model.bidding import Draaikaart
from solver.model.game import legal_cards
from solver.model.players import seen_seats
from solver.model.worlds import same_round, seen

DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
MODEL = PolicyModel.initial(hidden=16, seed=1)
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "game.json"


class HighCards:
    """A network that likes high cards: a card's score is its rank (7 lowest) times 10."""

    def scores(self, x):
        return np.tile(np.arange(32) % 8 * 10.0, (len(x), 1))


def plain_log_weight(game, seat, world, belief):
    """The play model's log probability of every card a hidden seat played, in `world`, by
    replaying the round there: one observation and one legal list per card."""
    hidden = [s for s in Seat if s not in seen(game, seat)]
    replay = same_round(game, world)
    total = 0.0
    for card in game.played:
        player = replay.to_move
        legal = replay.legal_cards()
        if player in hidden and len(legal) > 1:
            scores = belief.network.scores(encode.observation(replay, player)[None, :])[0]
            top = max(scores[c.index] / belief.temperature for c in legal)
            exp = {c: math.exp(scores[c.index] / belief.temperature - top) for c in legal}
            p = (1 - belief.epsilon) * exp[card] / sum(exp.values()) + belief.epsilon / len(legal)
            total += math.log(p)
        replay.place(card)
    return total


@settings(max_examples=30, **SLOW)
@given(positions(rules=rules_strategy, tricks_left=st.integers(1, 8)), st.integers(0, 3),
       st.sampled_from([(4, "after_lead"), (3, "after_lead"), (3, "never"), (2, "after_lead")]),
       st.integers(0, 1))
def test_the_weights_are_the_play_models_probabilities_multiplied_world_by_world(
        game, offset, table, which):
    players, dummy_open = table
    rules = replace(game.rules, players=players, dummy_open=dummy_open)
    again = Game(game.deal, game.trump, game.leader, game.playing, rules,
                 dummy=game.playing.seats[which] if players == 3 else None)
    again.replay(game.played)
    seat = Seat((again.to_move + offset) % 4)
    belief = PlayBelief(MODEL, temperature=3.0, epsilon=0.1)
    worlds = sample_worlds(again, seat, 6, seed=offset)
    got = belief.log_weights(again, seat, worlds)
    expected = [plain_log_weight(again, seat, w, belief) for w in worlds]
    assert np.allclose(got, expected, rtol=1e-5, atol=1e-4)


@settings(max_examples=40, **SLOW)
@given(positions(rules=rules_strategy, tricks_left=st.integers(1, 8)), st.randoms())
def test_a_card_is_legal_exactly_when_no_card_of_the_hand_excludes_it(game, rng):
    step = beliefs._make_step(game, game, game.legal_cards()[0])
    live = [c for c in map(Card.from_index, range(32)) if c not in game.played]
    for _ in range(20):
        hand = rng.sample(live, min(len(live), rng.randint(1, 8)))
        flags = np.zeros(32, dtype=np.int32)
        flags[[c.index for c in hand]] = 1
        mask = (flags > 0) & ~((flags @ step.excludes.T) > 0)
        allowed, _ = legal_cards(hand, list(game.current_trick), game.to_move,
                                 game.trick_leader, game.trump, game.rules)
        assert {Card.from_index(i) for i in np.flatnonzero(mask)} == set(allowed)


def mid_round(seed=3, cards=14):
    game = Game(Deal.random(seed), "H", "E", "NS")
    while len(game.played) < cards:
        game.play(game.legal_cards()[len(game.played) % len(game.legal_cards())])
    return game


def test_weights_add_up_to_one_are_above_zero_and_follow_the_seed():
    game = mid_round()
    worlds, weights = weighted_worlds(game, game.to_move, 40, seed=2, belief=PlayBelief(MODEL))
    assert weights.dtype == np.float64 and math.isclose(weights.sum(), 1.0)
    assert (weights > 0).all()
    again, same = weighted_worlds(game, game.to_move, 40, seed=2, belief=PlayBelief(MODEL))
    assert again == worlds and (same == weights).all()
    other, _ = weighted_worlds(game, game.to_move, 40, seed=3, belief=PlayBelief(MODEL))
    assert other != worlds


def test_an_overwhelming_model_rules_out_no_world():
    # Scores a thousand points apart: without the uniform share most worlds would get 0.
    class Shouting:
        def scores(self, x):
            return np.tile(np.arange(32) * 1000.0, (len(x), 1))
    game = mid_round(cards=27)
    _, weights = weighted_worlds(game, game.to_move, 60, seed=1,
                                 belief=PlayBelief(Shouting(), temperature=0.01, epsilon=1e-3))
    assert (weights > 0).all() and math.isclose(weights.sum(), 1.0)


def test_uniform_weights_are_equal_and_the_worlds_are_the_samplers():
    game = mid_round()
    worlds, weights = weighted_worlds(game, "N", 10, seed=4)
    assert worlds == sample_worlds(game, "N", 10, seed=4)
    assert np.allclose(weights, 0.1)


def test_a_low_card_played_under_a_high_card_model_moves_weight_off_the_high_cards():
    # Trick 2: E leads HJ, S takes it with HA, W plays HT, N (last) plays H9, its lowest heart.
    # A player who likes high cards would rarely do so holding a higher one (HK, HQ): from S's
    # view the worlds where N holds one weigh less than uniformly.
    game = Game(DEAL, "S", "S", "EW")
    game.replay("SK S9 SA SJ  HJ HA HT H9")
    assert game.tricks[1].seat_of(3) == Seat.N
    belief = PlayBelief(HighCards(), temperature=5.0, epsilon=0.05)
    worlds, weights = weighted_worlds(game, "S", 400, seed=1, belief=belief)
    holds = np.array([bool({Card.parse("HK"), Card.parse("HQ")} & set(w["N"])) for w in worlds])
    assert holds.any() and (~holds).any()
    assert weights[holds].sum() < holds.mean() / 2


def test_sampling_under_a_belief_draws_only_worlds_the_seat_cannot_rule_out():
    game = mid_round(cards=22)
    support = set(sample_worlds(game, "W", 2000, seed=1))
    drawn = sample_worlds(game, "W", 50, seed=7, belief=PlayBelief(MODEL))
    assert len(drawn) == 50 and set(drawn) <= support
    assert drawn == sample_worlds(game, "W", 50, seed=7, belief=PlayBelief(MODEL))


def test_weights_and_a_belief_together_are_refused():
    with pytest.raises(SolverError, match="weights or a belief"):
        sample_worlds(mid_round(), "N", 4, weights=lambda w: 1.0, belief=PlayBelief(MODEL))


def test_an_unknown_belief_is_named_in_the_error():
    with pytest.raises(SolverError, match="belief.*'hunch'"):
        belief_of("hunch")
    with pytest.raises(SolverError, match="a belief must be"):
        belief_of(42)


def test_a_play_belief_checks_its_network_and_numbers():
    with pytest.raises(SolverError, match="scores"):
        PlayBelief(object())
    with pytest.raises(SolverError, match="temperature"):
        PlayBelief(MODEL, temperature=0)
    with pytest.raises(SolverError, match="epsilon"):
        PlayBelief(MODEL, epsilon=1.5)


def test_a_network_giving_the_wrong_shape_is_an_error():
    class Broken:
        def scores(self, x):
            return np.zeros((len(x), 31))
    with pytest.raises(SolverError, match="rows of 32"):
        weighted_worlds(mid_round(), "N", 4, belief=PlayBelief(Broken()))


# -- the bidding -------------------------------------------------------------------------------

def draaikaart(calls, dealer=Seat.W, turned=Suit.H):
    bidding = Draaikaart(dealer, turned)
    for suit in calls:
        bidding.call(suit)
    return bidding


def test_a_pass_makes_a_strong_hand_in_the_turned_suit_less_likely():
    game = Game(DEAL, "S", "N", "NS")          # nothing played: only the bids can tell
    passed = draaikaart([None])                # N, left of the dealer W, passed on hearts
    belief = PlayBelief(MODEL)
    worlds, weights = weighted_worlds(game, "E", 400, seed=1, belief=belief, bidding=passed)
    strength = np.array([beliefs._bid_strength(Suit.H)[[c.index for c in w["N"]]].sum()
                         for w in worlds])
    strong = strength >= BidModel().threshold
    assert strong.any()
    assert weights[strong].sum() < strong.mean() / 1.5     # the strong hands lose weight
    _, plain = weighted_worlds(game, "E", 400, seed=1, belief=belief)
    assert np.allclose(plain, 1 / 400)       # no play and no bidding: every world alike


def test_without_bidding_the_weights_are_the_plays_alone():
    game = mid_round()
    belief = PlayBelief(MODEL)
    worlds = sample_worlds(game, "N", 20, seed=3)
    assert (belief.log_weights(game, Seat.N, worlds)
            == PlayBelief(MODEL, bids=None).log_weights(game, Seat.N, worlds,
                                                         draaikaart([None]))).all()


def test_the_seats_own_call_and_its_seen_hands_weigh_nothing():
    game = Game(DEAL, "S", "N", "NS")
    own = draaikaart([None])                    # N passed: N's own call
    _, weights = weighted_worlds(game, "N", 50, seed=1, belief=PlayBelief(MODEL), bidding=own)
    assert np.allclose(weights, 1 / 50)


def test_round_two_calls_and_a_forced_choice_are_read():
    model = BidModel()
    bidding = draaikaart([None] * 4 + [None, Suit.S, ], turned=Suit.H)
    dealt = np.zeros((2, 4, 32), dtype=bool)
    for w, spades in enumerate((["SJ", "S9", "SA"], ["S7", "S8", "C7"])):
        dealt[w, Seat.E, [Card.parse(c).index for c in spades]] = True
    logs = model.log_likelihood(bidding, dealt, [Seat.E])
    assert logs[0] > logs[1]                    # E named spades: the spade hand is likelier
    forced = draaikaart([None] * 7 + [Suit.S])
    assert np.isfinite(model.log_likelihood(forced, dealt, [Seat.N])).all()


def test_a_bidding_that_is_not_a_draaikaart_is_refused():
    with pytest.raises(SolverError, match="Draaikaart"):
        weighted_worlds(mid_round(), "N", 4, belief=PlayBelief(MODEL), bidding=[("N", False)])


# -- the uses ----------------------------------------------------------------------------------

def test_a_view_names_its_belief_and_keeps_it_through_json():
    game = mid_round(cards=20)
    view = analyse_view(game, worlds=6, seed=1, belief=PlayBelief(MODEL), workers=1)
    assert view.belief == "play" and "(play belief)" in str(view)
    assert ViewAnalysis.from_dict(view.to_dict()).belief == "play"
    plain = analyse_view(game, worlds=6, seed=1, workers=1)
    assert plain.belief == "uniform" and "(uniform belief)" in str(plain)


def test_a_view_under_a_belief_values_its_worlds_as_drawn():
    game = mid_round(cards=20)
    belief = PlayBelief(MODEL)
    view = analyse_view(game, worlds=8, seed=2, belief=belief, workers=1)
    assert view.worlds == sample_worlds(game, game.to_move, 8, 2, belief=belief)


def test_the_pimc_bot_plays_legally_under_a_belief_and_says_so_in_its_name():
    from solver.bots import PIMCBot
    bot = PIMCBot(worlds=4, seed=1, belief=PlayBelief(MODEL))
    assert bot.name == "pimc:4+play"
    game = Game(Deal.random(5), "C", "W", "EW")
    while not game.is_over:
        game.play(bot.act(game, game.to_move))


def test_the_arena_refuses_an_unknown_belief_by_name():
    from solver.arena.names import make_bot
    from solver.errors import BotError
    with pytest.raises(BotError, match="belief of pimc:8\\+hunch"):
        make_bot("pimc:8+hunch")


def test_a_uniform_belief_object_is_uniform():
    game = mid_round()
    worlds = sample_worlds(game, "N", 5, seed=1)
    assert (UniformBelief().log_weights(game, Seat.N, worlds) == 0).all()


@pytest.fixture
def play_is_the_test_model(monkeypatch):
    """"play" names a belief over the small test model (the package's network stands in)."""
    monkeypatch.setattr(beliefs, "_PLAY", PlayBelief(MODEL))


def test_the_commands_take_a_belief_and_name_it(capsys, play_is_the_test_model):
    from solver.cli import main
    position = [DEAL.to_pbn(), "--trump", "S", "--leader", "S", "--playing", "EW",
                "--played", "SK S9 SA SJ HJ"]
    assert main(["view", *position, "--worlds", "4", "--belief", "play"]) == 0
    assert "(play belief)" in capsys.readouterr().out
    assert main(["view", *position, "--worlds", "4", "--belief", "play", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["belief"] == "play"
    assert main(["analyse", str(EXAMPLE), "--worlds", "2", "--belief", "play"]) == 0
    assert "worlds drawn under the play belief" in capsys.readouterr().out
    assert main(["analyse", str(EXAMPLE), "--worlds", "2", "--json", "--belief", "play"]) == 0
    assert json.loads(capsys.readouterr().out)["belief"] == "play"
    assert main(["analyse", str(EXAMPLE), "--worlds", "2"]) == 0
    assert "worlds drawn under the uniform belief" in capsys.readouterr().out


def test_a_belief_the_command_does_not_know_is_refused_by_name(capsys):
    from solver.cli import main
    assert main(["view", DEAL.to_pbn(), "--trump", "S", "--leader", "S", "--playing", "EW",
                 "--belief", "hunch"]) == 2
    assert "--belief: invalid choice: 'hunch'" in capsys.readouterr().err


def test_the_report_names_the_belief(tmp_path, play_is_the_test_model):
    from solver.cli import main
    out = tmp_path / "r.html"
    assert main(["report", str(EXAMPLE), "--worlds", "2", "--belief", "play", "-o",
                 str(out)]) == 0
    assert "drawn under the play belief" in out.read_text()


def test_labels_record_their_belief_and_refuse_a_resume_under_another(
        tmp_path, play_is_the_test_model):
    from solver.errors import LabelsError
    from solver.labels import LabelConfig, generate, load
    config = LabelConfig(deals=1, positions="root", format="npz", worlds=3, belief="play")
    generate(config, tmp_path, workers=1)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["config"]["belief"] == "play"
    assert not np.isnan(load(tmp_path)["sd_values"]).all()
    with pytest.raises(LabelsError, match="belief='play', not belief='uniform'"):
        generate(replace(config, belief="uniform"), tmp_path, workers=1)


def test_a_labels_belief_needs_worlds_and_a_known_name():
    from solver.errors import LabelsError
    from solver.labels import LabelConfig
    with pytest.raises(LabelsError, match="give worlds too"):
        LabelConfig(belief="play")
    with pytest.raises(LabelsError, match="belief"):
        LabelConfig(worlds=2, belief="hunch")
    old = LabelConfig(worlds=2).to_dict()
    del old["belief"]                           # a manifest written before beliefs
    assert LabelConfig.from_dict(old).belief == "uniform"


def test_the_openspiel_game_resamples_under_its_belief():
    pyspiel = pytest.importorskip("pyspiel")
    from solver import openspiel  # noqa: F401  (registers the game)
    from solver.errors import SolverError as Refused
    game = pyspiel.load_game("klaverjas", {"bidding": "draaikaart", "belief": "play"})
    assert game.belief == "play" and "belief=play" in str(game)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while not (state.round is not None and len(state.round.played) >= 9):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randint(len(actions))])
    player = state.current_player()
    for seed in range(5):
        other = state.resample_from_infostate(player, np.random.RandomState(seed).random_sample)
        assert other.information_state_string(player) == state.information_state_string(player)
        again = state.resample_from_infostate(player, np.random.RandomState(seed).random_sample)
        assert other.round.deal == again.round.deal
    with pytest.raises(Refused, match="belief"):
        pyspiel.load_game("klaverjas", {"belief": "hunch"})


def test_the_openspiel_resampling_reads_the_draaikaart_calls(monkeypatch):
    pytest.importorskip("pyspiel")
    from solver.openspiel.game import KlaverjasGame
    seen_bidding = []
    real = beliefs.weighted_worlds

    def spy(game, seat, n, seed=0, belief="uniform", bidding=None):
        seen_bidding.append(bidding)
        return real(game, seat, n, seed, belief, bidding)
    monkeypatch.setattr(beliefs, "weighted_worlds", spy)
    game = KlaverjasGame({"bidding": "draaikaart", "belief": "play"})
    state = game.new_initial_state()
    for index in range(32):
        state.apply_action(index)
    state.apply_action(0)            # dealer N
    state.apply_action(2)            # hearts turned
    state.apply_action(32)           # E passes
    state.resample_from_infostate(2, lambda: 0.5)
    assert seen_bidding and seen_bidding[0].calls == [(Seat.E, None)]


def test_systematic_picks_keep_each_world_within_one_of_n_times_its_weight():
    from solver.analysis.beliefs import systematic_picks
    rng = np.random.default_rng(1)
    for seed in range(20):
        weights = rng.dirichlet(np.full(7, 0.5))
        picks = systematic_picks(weights, 16, seed)
        counts = np.bincount(picks, minlength=7)
        assert len(picks) == 16 and (np.abs(counts - 16 * weights) < 1).all()
        assert picks == systematic_picks(weights, 16, seed)


def test_a_step_is_made_once_a_round_and_found_again():
    game = mid_round(cards=12)
    belief = PlayBelief(MODEL)
    worlds = sample_worlds(game, "N", 8, seed=1)
    beliefs._STEP_CACHE.clear()
    first = belief.log_weights(game, Seat.N, worlds)
    made = len(beliefs._STEP_CACHE)
    assert made == 12
    assert (belief.log_weights(game, Seat.N, worlds) == first).all()
    assert len(beliefs._STEP_CACHE) == made


def test_the_analysis_of_many_rounds_names_its_belief(capsys, play_is_the_test_model):
    from solver.cli import main
    boom = EXAMPLE.parent / "boom.jsonl"
    assert main(["analyse", str(boom), "--worlds", "1", "--belief", "play"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(
        "single dummy over worlds drawn under the play belief")


def test_a_pimc_bot_adding_worlds_until_clear_draws_them_under_its_belief():
    from solver.bots import PIMCBot
    bot = PIMCBot(worlds=8, seed=2, margin=5, belief=PlayBelief(MODEL))
    game = mid_round(cards=9)
    view = bot.view(game)
    assert view.belief == "play"
    assert bot.act(game, game.to_move) in game.legal_cards()


@pytest.mark.parametrize("ledig_trump", ["none", "chosen"])
def test_a_ledig_round_is_weighed_as_a_plain_loop_would(ledig_trump):
    from solver import Rules
    game = Game(Deal.random(4), "H" if ledig_trump == "chosen" else None, "W",
                rules=Rules(contract="ledig", ledig_trump=ledig_trump), bidder="S")
    while len(game.played) < 13:
        game.play(game.legal_cards()[len(game.played) % len(game.legal_cards())])
    belief = PlayBelief(MODEL, temperature=2.0, epsilon=0.1)
    worlds = sample_worlds(game, "E", 6, seed=1)
    expected = [plain_log_weight(game, Seat.E, w, belief) for w in worlds]
    assert np.allclose(belief.log_weights(game, Seat.E, worlds), expected, atol=1e-4)


def test_no_worlds_asked_under_a_belief_is_no_worlds():
    game = Game(Deal.random(1), "H", "E", "NS")
    game.replay("CT CJ C7 C9 HK")
    assert sample_worlds(game, "S", 0, seed=1,
                         belief=PlayBelief(PolicyModel.initial(hidden=8, seed=1))) == []
