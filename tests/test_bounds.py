"""The bounds on the value still to come, which let the search skip a position whose
window they miss: they must hold the exact value under every rule."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, card_indices, example_counts, positions
from solver import Deal, Game, Rules
from solver import _engine
from solver.reference import minimax
from solver.search import engine_position, engine_spec

POINTS = _engine.Metric.METRIC_POINTS


LAST_TRICKS = {
    # name: (the four hands, North first; trump; tricks won by (NS, EW); engine spec changes)
    "four jacks": (["HJ", "SJ", "CJ", "DJ"], "H", (3, 4), {}),
    "run of four": (["H7", "H8", "H9", "HT"], "S", (3, 4), {}),
    "stuk": (["SQ", "SK", "H7", "H8"], "S", (3, 4), {}),
    "pit by the players": (["HA", "H7", "HK", "H8"], "S", (7, 0), {}),
    "pit by the defenders": (["H7", "HA", "H8", "HK"], "S", (0, 7), {}),
    "hand roem": (["HA", "H7", "HK", "H8"], "S", (3, 4), {"hand_roem": [50, 20]}),
    "hand roem won with the last trick": (["HA", "H7", "HK", "H8"], "S", (0, 7),
                                          {"hand_roem": [50, 20], "hand_needs_trick": 1}),
    "hand roem kept from afkeuren": (["H7", "HA", "H8", "HK"], "S", (7, 0),
                                     {"hand_roem": [50, 20], "hand_needs_trick": 1}),
}


@pytest.mark.parametrize("name", LAST_TRICKS)
def test_the_bounds_hold_every_kind_of_roem_and_bonus(name):
    cards, trump, won, changes = LAST_TRICKS[name]
    game = Game(Deal.random(0), trump=trump, leader="N", playing="NS", rules=Rules())
    engine = _engine.Engine(1)
    engine.configure(dict(engine_spec(game), **changes))
    position = ([card_indices(c) for c in cards], [], 0, (60, 50), (0, 0), won, 1)
    low, high = engine.bounds(position, POINTS)
    assert low <= engine.search(position, POINTS) <= high


@pytest.mark.parametrize("max_examples", example_counts(40, 16))
def test_the_bounds_from_what_is_left_hold_the_value(max_examples):
    # The search skips a position whose bounds lie outside its window: they must hold the
    # exact value under every rule (pit, hand roem that needs a trick, runs, fours, stuk).
    @settings(max_examples=max_examples, **SLOW)
    @given(positions(tricks_left=st.integers(2, 3)), st.sampled_from(["points", "cards"]))
    def check(game, metric):
        while game.current_trick:
            game.play(game.legal_cards()[0])
        engine = _engine.Engine(1)
        engine.configure(engine_spec(game))
        position = engine_position(game)
        low, high = engine.bounds(position, getattr(_engine.Metric, "METRIC_" + metric.upper()))
        if metric == "points":
            value = minimax(game, "points").value
        else:
            value = engine.search(position, _engine.Metric.METRIC_CARDS)
        assert low <= value <= high
    check()
