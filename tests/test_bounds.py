"""The bounds on the value still to come, which let the search skip a position whose
window they miss: they must hold the exact value under every rule."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, card_indices, example_counts, positions
from solver import Card, Deal, Game, Rules
from solver.engine import _engine
from solver.engine.reference import minimax
from solver.engine.search import engine_position, engine_spec

POINTS = _engine.Metric.METRIC_POINTS
SCORE = _engine.Metric.METRIC_SCORE


def bounded_score(rules):
    """The rules under which the engine bounds the score: a made round scores its points."""
    return rules.nat == "majority" and rules.multiplier == 1 and rules.zero_bonus == 0


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
    "hand roem lost without a trick": (["H7", "HA", "H8", "HK"], "S", (0, 7),
                                       {"hand_roem": [50, 20], "hand_needs_trick": 1}),
    "hand roem kept from afkeuren": (["H7", "HA", "H8", "HK"], "S", (7, 0),
                                     {"hand_roem": [50, 20], "hand_needs_trick": 1}),
}


@pytest.mark.parametrize("metric", [POINTS, SCORE], ids=["points", "score"])
@pytest.mark.parametrize("name", LAST_TRICKS)
def test_the_bounds_hold_every_kind_of_roem_and_bonus(name, metric):
    cards, trump, won, changes = LAST_TRICKS[name]
    game = Game(Deal.random(0), trump=trump, leader="N", playing="NS", rules=Rules())
    engine = _engine.Engine(1)
    engine.configure(dict(engine_spec(game), **changes))
    # What was taken so far adds up with the last trick to the 162 points of a round.
    left = sum(Card.parse(c).points(game.trump) for c in cards) + 10
    position = ([card_indices(c) for c in cards], [], 0, (112 - left, 50), (0, 0), won, 1)
    low, high = engine.bounds(position, metric)
    assert low <= engine.search(position, metric) <= high


@pytest.mark.parametrize("max_examples", example_counts(40, 16))
def test_the_bounds_from_what_is_left_hold_the_value(max_examples):
    # The search skips a position whose bounds lie outside its window: they must hold the
    # exact value under every rule (pit, hand roem that needs a trick, runs, fours, stuk).
    @settings(max_examples=max_examples, **SLOW)
    @given(positions(tricks_left=st.integers(2, 3)), st.sampled_from(["points", "cards", "score"]))
    def check(game, metric):
        while game.current_trick:
            game.play(game.legal_cards()[0])
        engine = _engine.Engine(1)
        engine.configure(engine_spec(game))
        position = engine_position(game)
        code = getattr(_engine.Metric, "METRIC_" + metric.upper())
        if metric == "score" and not bounded_score(game.rules):
            with pytest.raises(ValueError):
                engine.bounds(position, code)
            return
        low, high = engine.bounds(position, code)
        if metric == "cards":
            value = engine.search(position, code)
        else:
            value = minimax(game, metric).value
        assert low <= value <= high
    check()


NAT_ENDINGS = {
    # name: (the last trick, North first; points taken (NS, EW); tricks won; spec changes;
    #        the score). Trump S; the last trick is worth 25 with its bonus.
    "NS take the last trick to a tie": (["HA", "H7", "HK", "H8"], (56, 81), (3, 4), {}, -162),
    "EW take the last trick to a tie": (["H7", "HA", "H8", "HK"], (81, 56), (3, 4), {}, -162),
    "hand roem lost without a trick": (["H7", "HA", "H8", "HK"], (0, 137), (0, 7),
                                       {"hand_roem": [50, 20], "hand_needs_trick": 1,
                                        "pit_mode": 2}, -182),
}


@pytest.mark.parametrize("name", NAT_ENDINGS)
def test_the_score_bounds_hold_a_nat_round(name):
    cards, pts, won, changes, score = NAT_ENDINGS[name]
    game = Game(Deal.random(0), trump="S", leader="N", playing="NS", rules=Rules(roem="none"))
    engine = _engine.Engine(1)
    engine.configure(dict(engine_spec(game), **changes))
    position = ([card_indices(c) for c in cards], [], 0, pts, (0, 0), won, 1)
    low, high = engine.bounds(position, SCORE)
    assert low <= engine.search(position, SCORE) == score <= high
