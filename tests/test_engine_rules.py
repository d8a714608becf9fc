"""The Cython primitives agree with game.py: legal cards, tricks, roem, final values."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import PLAY_RULES, rules_strategy, seeds, seats, suits, teams
from solver import Deal, Game
from solver.engine import _engine
from solver.model.scoring import objective_value
from solver.engine.search import engine_position, engine_spec

METRIC = _engine.Metric


def play_out_and_compare(game, rnd):
    engine = _engine.Engine(1)
    engine.configure(engine_spec(game))
    while not game.is_over:
        position = engine_position(game)
        legal = game.legal_cards()
        assert engine.legal(position) == [c.index for c in legal], game.played
        card = rnd.choice(legal)
        after = engine.play(position, card.index)
        game.play(card)
        # Hands, trick, leader, and each side's points, roem and tricks, as game.py has them.
        assert after == engine_position(game), game.played
    return engine


@pytest.mark.parametrize("rules", PLAY_RULES, ids=lambda r: repr(r))
@settings(max_examples=15, deadline=None)
@given(seed=seeds, trump=suits, leader=seats, playing=teams, rnd=st.randoms(use_true_random=False))
def test_engine_plays_every_duty_and_roem_option_like_game(rules, seed, trump, leader, playing, rnd):
    play_out_and_compare(Game(Deal.random(seed), trump, leader, playing, rules), rnd)


@settings(max_examples=200, deadline=None)
@given(seeds, suits, seats, teams, rules_strategy, st.randoms(use_true_random=False))
def test_engine_final_values_match_scoring(seed, trump, leader, playing, rules, rnd):
    game = Game(Deal.random(seed), trump, leader, playing, rules)
    engine = play_out_and_compare(game, rnd)
    position = engine_position(game)
    tallies = game.tallies()
    for objective, metric in (("points", METRIC.METRIC_POINTS), ("score", METRIC.METRIC_SCORE)):
        assert engine.final_value(position, metric) == \
            objective_value(objective, tallies, game.playing, trump, rules)
    assert engine.final_value(position, METRIC.METRIC_CARDS) == tallies[game.playing].card_points
