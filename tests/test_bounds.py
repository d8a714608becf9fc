"""The bounds on the value still to come, which let the search skip a position whose
window they miss: they must hold the exact value under every rule."""
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import (SLOW, card_indices, example_counts, ledig_positions, positions,
                      rules_strategy)
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


def engine_and_position(game):
    """An engine configured for `game`, and its position once the current trick is done."""
    while game.current_trick:
        game.play(game.legal_cards()[0])
    engine = _engine.Engine(1)
    engine.configure(engine_spec(game))
    return engine, engine_position(game)


@pytest.mark.parametrize("max_examples", example_counts(40, 10))
def test_the_bounds_hold_the_value_at_every_trick(max_examples):
    # The sure tricks (the top trumps, a hand of nothing but them) and the roem that can still
    # be made (one card of each hand to a trick) are bounds at every trick, under every rule:
    # the search's exact value, from any trick on, lies within them.
    @settings(max_examples=max_examples, **SLOW)
    @given(positions(tricks_left=st.integers(2, 8)), st.sampled_from(["points", "cards", "score"]))
    def check(game, metric):
        engine, position = engine_and_position(game)
        code = getattr(_engine.Metric, "METRIC_" + metric.upper())
        if metric == "score" and not bounded_score(game.rules):
            return
        low, high = engine.bounds(position, code)
        assert low <= engine.search(position, code) <= high
    check()


def hands_of(deal, trump="H", rules=None, won=(3, 2)):
    """An engine for `deal` (four hands of three cards, North first, North to lead) with three
    tricks left, the defenders having taken 30 points; and the points left (with the last
    trick) and the points difference so far."""
    game = Game(Deal.random(0), trump=trump, leader="N", playing="NS", rules=rules or Rules())
    engine = _engine.Engine(1)
    engine.configure(engine_spec(game))
    left = sum(Card.parse(c).points(game.trump) for hand in deal for c in hand) + 10
    pts = (162 - left - 30, 30)
    return engine, ([card_indices(*hand) for hand in deal], [], 0, pts, (0, 0), won, 3), left, \
        pts[0] - pts[1]


def test_the_bounds_allow_runs_from_three_hands():
    # West's top trumps take every trick, and North's lead makes a run of 7 8 9 from three
    # hands that nobody can avoid (West then leads trumps): 20 roem to the defenders, which the
    # bound must allow.
    hands = (["C7", "D7", "S7"], ["C8", "D8", "S8"], ["C9", "D9", "S9"], ["HJ", "H9", "HA"])
    engine, position, left, base = hands_of(hands)
    low, high = engine.bounds(position, POINTS)
    assert low <= engine.search(position, POINTS) == base - left - 20 <= high


def test_roem_one_hand_holds_cannot_be_made():
    # Runs, four of a kind and stuk need one card of each of their hands: held by one hand, or
    # two of them in one, they are not in the bound. No roem at all here: the bound is the
    # card points left either way.
    one_hand = (["C7", "C8", "C9"], ["SJ", "SQ", "SK"], ["HQ", "HK", "D7"], ["CA", "DA", "HA"])
    engine, position, left, base = hands_of(one_hand, rules=Rules(pit="none"))
    low, high = engine.bounds(position, POINTS)
    assert high - base <= left and low - base >= -left


def test_a_hand_of_top_trumps_takes_every_trick():
    # West holds nothing but the top trumps: the defenders take every trick left, all the
    # points, whatever North leads.
    hands = (["CA", "CT", "DA"], ["SA", "ST", "S7"], ["D7", "D8", "C7"], ["HJ", "H9", "HA"])
    engine, position, left, base = hands_of(hands, rules=Rules(roem="none"))
    low, high = engine.bounds(position, POINTS)
    assert high == base - left == engine.search(position, POINTS)
    # Not so with the jack of trumps in North's or South's hand: it takes a trick.
    hands = (["CA", "CT", "HJ"], ["SA", "ST", "S7"], ["D7", "D8", "C7"], ["DA", "H9", "HA"])
    engine, position, left, base = hands_of(hands, rules=Rules(roem="none"))
    low, high = engine.bounds(position, POINTS)
    assert low <= engine.search(position, POINTS) <= high
    hands = (["CA", "CT", "DA"], ["SA", "ST", "S7"], ["D7", "D8", "HJ"], ["HT", "H9", "HA"])
    engine, position, left, base = hands_of(hands, rules=Rules(roem="none"))
    low, high = engine.bounds(position, POINTS)
    assert low <= engine.search(position, POINTS) <= high


def most_roem(game):
    """The most roem any play of the tricks left makes, both teams together (brute force)."""
    if game.is_over:
        return game.roem_so_far()
    most = 0
    for card in game.legal_cards():
        game.play(card)
        most = max(most, most_roem(game))
        game.undo()
    return most


@pytest.mark.parametrize("max_examples", example_counts(30, 10))
def test_the_roem_to_come_holds_every_play(max_examples):
    # Runs, fours and stuk need their cards in different hands, one to a trick: the bound
    # must allow the most roem that any play of the last tricks makes.
    @settings(max_examples=max_examples, **SLOW)
    @given(positions(rules_strategy.map(lambda rules: replace(rules, roem="table")),
                     tricks_left=st.integers(2, 3)))
    def check(game):
        engine, position = engine_and_position(game)
        assert most_roem(game) - game.roem_so_far() <= engine.roem_to_come(position)
    check()


ROEM_FROM_HANDS = {
    # name: the four hands, North first and to lead, trump; roem that some play makes.
    "a run below a pair of one hand": (["C7", "D7"], ["C8", "D8"], ["C9", "CT"], ["S7", "S8"],
                                       "H"),
    "a run above two ranks apart": (["C8", "D7"], ["CT", "D8"], ["C7", "C9"], ["S7", "S8"], "H"),
    "a run below two ranks apart": (["C7", "D7"], ["C9", "D8"], ["C8", "CT"], ["S7", "S8"], "H"),
    "four jacks": (["CJ", "C7"], ["DJ", "D7"], ["SJ", "S7"], ["HJ", "H7"], "C"),
    "stuk": (["HQ", "C7"], ["HK", "C8"], ["D7", "D8"], ["S7", "S8"], "H"),
}


@pytest.mark.parametrize("name", ROEM_FROM_HANDS)
def test_the_roem_to_come_allows_roem_from_different_hands(name):
    *hands, trump = ROEM_FROM_HANDS[name]
    game = Game(Deal.random(0), trump=trump, leader="N", playing="NS", rules=Rules())
    engine = _engine.Engine(1)
    engine.configure(engine_spec(game))
    position = ([card_indices(*hand) for hand in hands], [], 0, (0, 0), (0, 0), (3, 3), 2)
    assert 0 < engine_most_roem(engine, position) <= engine.roem_to_come(position)


def engine_most_roem(engine, position):
    """most_roem on an engine position: the most roem any play of it makes."""
    if position[6] == 0:
        return sum(position[4])
    return max(engine_most_roem(engine, engine.play(position, card))
               for card in engine.legal(position))


@pytest.mark.parametrize("max_examples", example_counts(30, 10))
def test_the_ledig_bounds_hold_the_value_at_every_trick(max_examples):
    # The tricks the bidder must take (his top trumps) and those he cannot take (another
    # hand's trumps above his), from any trick on, under every rule.
    @settings(max_examples=max_examples, **SLOW)
    @given(ledig_positions(tricks_left=st.integers(2, 8)))
    def check(game):
        engine, position = engine_and_position(game)
        low, high = engine.bounds(position, _engine.Metric.METRIC_LEDIG)
        assert low <= engine.search(position, _engine.Metric.METRIC_LEDIG) <= high
    check()
