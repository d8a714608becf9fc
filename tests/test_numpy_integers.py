"""NumPy integers are accepted wherever an int is: label columns are NumPy arrays, and a bot
author indexes them straight into the API."""
import numpy as np
import pytest

from solver import (Card, Deal, Game, Rules, Seat, Suit, Team, analyse_view, encode,
                    sample_worlds)
from solver.labels import LabelConfig
from solver.model.streams import SplitMix64, derive

KINDS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("kind", KINDS)
def test_a_card_from_a_numpy_index(kind):
    assert Card.from_index(kind(20)) is Card.from_index(20) is Card.parse("HJ")


@pytest.mark.parametrize("kind", KINDS)
def test_suits_seats_and_teams_from_numpy_numbers(kind):
    assert (Suit.parse(kind(2)), Seat.parse(kind(3)), Team.parse(kind(1))) == \
        (Suit.H, Seat.W, Team.EW)


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_from_numpy_columns(kind):
    deal = Deal.random(kind(7))
    game = Game(deal, kind(1), kind(2), kind(1), Rules(pit_bonus=kind(50)))
    assert (game.trump, game.leader, game.playing, game.rules.pit_bonus) == \
        (Suit.D, Seat.S, Team.EW, 50)
    assert deal == Deal.random(7) and deal[kind(2)] == deal["S"]


@pytest.mark.parametrize("kind", [np.int8, np.int64, np.uint64])
def test_rules_options_from_numpy_numbers(kind):
    rules = Rules(multiplier=kind(2), zero_bonus=kind(10), nat=kind(82),
                  four_of_a_kind={kind(10): kind(120), "J": kind(110)})
    assert rules == Rules(multiplier=2, zero_bonus=10, nat="82",
                          four_of_a_kind={"T": 120, "J": 110})


@pytest.mark.parametrize("kind", [np.int32, np.int64, np.uint64])
def test_seeded_streams_mix_numpy_numbers_as_their_values(kind):
    assert derive(kind(3), kind(9), 0) == derive(3, 9, 0)
    assert SplitMix64(kind(5)).below(kind(7)) == SplitMix64(5).below(7)


def test_worlds_views_and_observations_take_numpy_numbers():
    game = Game(Deal.random(1), "H", "E", "NS")
    seat = np.int64(1)
    assert sample_worlds(game, seat, np.int8(3), seed=np.uint64(2)) == \
        sample_worlds(game, 1, 3, seed=2)
    assert analyse_view(game, worlds=np.int16(2), seed=np.int64(4)).cards.keys() == \
        analyse_view(game, worlds=2, seed=4).cards.keys()
    assert np.array_equal(encode.observation(game, seat), encode.observation(game, 1))


def test_a_labels_config_from_numpy_numbers():
    config = LabelConfig(deals=np.int64(10), seed=np.uint64(3), worlds=np.int8(2),
                         deals_per_shard=np.int32(5), trump=np.int8(2), leader=np.int8(1),
                         playing=np.int8(0))
    assert config == LabelConfig(deals=10, seed=3, worlds=2, deals_per_shard=5, trump="H",
                                 leader="E", playing="NS")
