"""Sampled worlds and single-dummy analyses: every world agrees with the play, the sampling is
uniform, and the means are the means of exact double-dummy values."""
import itertools
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, positions, rules_strategy
from solver import (Card, Deal, Game, GameRecord, IllegalPlayError, Seat, Solver, SolverError, Suit,
                    analyse_bidding, analyse_play, analyse_view, sample_worlds, solve_moves)
from solver.cli import main
from solver.analysis.beliefs import PlayBelief, weighted_worlds
from solver.analysis.beliefs import sample_worlds as belief_worlds
from solver.bots.policy import PolicyModel
from solver.model.game import legal_cards
from solver.model.worlds import _excluded_cards, count_worlds, excluded_cards, seen
from solver.model.players import seen_seats

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "game.json"
UNLUCKY = Path(__file__).resolve().parents[1] / "examples" / "unlucky.json"
DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")


def replays(game, world, rules=None, dummy=None):
    """`game`'s play replayed on `world` (with other `rules` and `dummy` when given)."""
    copy = Game(world, game.trump, game.leader, game.playing, rules or game.rules,
                dummy=game.dummy if dummy is None else dummy)
    copy.replay(game.played)
    return copy


@settings(max_examples=60, **SLOW)
@given(positions(tricks_left=st.integers(1, 8)), st.sampled_from(list(Seat)), st.integers(0, 99))
def test_every_world_keeps_the_seats_hand_and_replays_the_play(game, seat, seed):
    for world in sample_worlds(game, seat, 20, seed):
        assert world[seat] == game.deal[seat]
        copy = replays(game, world)              # raises if any recorded card is illegal
        for other in Seat:
            assert len(copy.hands[other]) == len(game.hands[other])


def brute_force(game, seat):
    """Every deal of the unseen cards with the right counts whose replay is legal; the hands
    the player of `seat` sees (his own, and at a table of three or two those `seen_seats`
    names) stay as dealt."""
    known = seen_seats(game.rules, seat, len(game.played), game.dummy)
    others = [s for s in Seat if s not in known]
    unseen = sorted(c for s in others for c in game.hands[s])
    played_by = {s: [c for c in game.deal[s] if c not in game.hands[s]] for s in Seat}
    found = set()
    counts = [len(game.hands[s]) for s in others]
    for order in itertools.permutations(range(len(unseen))):
        cards = [unseen[i] for i in order]
        hands = {s: list(game.deal[s]) for s in known}
        start = 0
        for s, n in zip(others, counts):
            hands[s] = played_by[s] + cards[start:start + n]
            start += n
        world = Deal(hands)
        if world in found:
            continue
        try:
            replays(game, world)
        except SolverError:
            continue
        found.add(world)
    return found


@settings(max_examples=25, **SLOW)
@given(positions(rules=rules_strategy, tricks_left=st.integers(2, 2)), st.integers(0, 3))
def test_the_sampler_reaches_every_consistent_world_and_nothing_else(game, offset):
    seat = Seat((game.to_move + offset) % 4)
    if sum(len(game.hands[s]) for s in Seat if s != seat) > 7:
        return                                    # keep the brute force small
    expected = brute_force(game, seat)
    assert count_worlds(game, seat) == len(expected)
    assert set(sample_worlds(game, seat, 40 * len(expected), seed=1)) == expected
    weighted_support_is(expected, game, seat)


def weighted_support_is(expected, game, seat):
    """Under the play belief the worlds are the same, each with a weight above 0 (the weights
    adding up to one), and a draw by weight never leaves them."""
    belief = PlayBelief(PolicyModel.initial(hidden=16, seed=1), temperature=0.5)
    worlds, weights = weighted_worlds(game, seat, 40 * len(expected), seed=1, belief=belief)
    assert set(worlds) == expected
    assert (weights > 0).all() and abs(weights.sum() - 1) < 1e-9
    assert set(belief_worlds(game, seat, 10, seed=2, belief=belief)) <= expected


@settings(max_examples=40, **SLOW)
@given(positions(rules=rules_strategy, tricks_left=st.integers(2, 3)), st.integers(0, 3),
       st.sampled_from([(3, "after_lead"), (3, "always"), (3, "never"), (2, "after_lead")]),
       st.integers(0, 1))
def test_at_tables_of_three_and_two_the_sampler_reaches_every_consistent_world(
        game, offset, table, which):
    players, dummy_open = table
    rules = replace(game.rules, players=players, dummy_open=dummy_open)
    game = replays(game, game.deal, rules, game.playing.seats[which] if players == 3 else None)
    seat = Seat((game.to_move + offset) % 4)
    known = seen_seats(game.rules, seat, len(game.played), game.dummy)
    if sum(len(game.hands[s]) for s in Seat if s not in known) > 7:
        return                                    # keep the brute force small
    expected = brute_force(game, seat)
    assert count_worlds(game, seat) == len(expected)
    assert set(sample_worlds(game, seat, 40 * len(expected), seed=1)) == expected
    weighted_support_is(expected, game, seat)


def test_owners_are_uniform_without_constraints():
    game = Game(DEAL, "H", "E", "NS")
    worlds = sample_worlds(game, Seat.N, 3000, seed=7)
    chi_square = 0.0
    for card in (c for s in (Seat.E, Seat.S, Seat.W) for c in DEAL[s]):
        counts = [sum(card in w[s] for w in worlds) for s in (Seat.E, Seat.S, Seat.W)]
        chi_square += sum((n - 1000) ** 2 / 1000 for n in counts)
    # 24 cards x 2 degrees of freedom: 48; its 99.99% point is about 90.
    assert chi_square < 90


def test_a_shown_void_is_never_broken():
    game = Game(DEAL, "S", "S", "EW")
    game.replay("SK S9 SA SJ  HJ HA HT H9  C9 CJ C7 CT")   # W showed out of nothing; check E
    voids = {s: {suit for suit in Suit if any(
        c.suit != t.cards[0].suit and t.cards[0].suit == suit and t.seat_of(i) == s
        for t in game.tricks for i, c in enumerate(t.cards))} for s in Seat}
    for world in sample_worlds(game, Seat.N, 300, seed=3):
        copy = replays(game, world)
        for seat, suits in voids.items():
            assert not any(c.suit in suits for c in copy.hands[seat])


def replayed_exclusions(game, seat):
    """excluded_cards the plain way: the round replayed card by card, and each card a hidden
    hand played tested against every card still unseen."""
    known = seen(game, seat)
    unseen = [c for s in Seat if s not in known for c in game.hands[s]]
    excluded = {s: set() for s in Seat if s not in known}
    replay = Game(game.deal, game.trump, game.leader, game.playing, game.rules,
                  bidder=game.bidder, dummy=game.dummy)
    for card in game.played:
        player = replay.to_move
        for other in unseen if player in excluded else []:
            allowed, _ = legal_cards([card, other], replay.current_trick, player,
                                     replay.trick_leader, game.trump, game.rules)
            if card not in allowed:
                excluded[player].add(other)
        replay.play(card)
    return {s: frozenset(cards) for s, cards in excluded.items()}


@settings(max_examples=25, **SLOW)
@given(rules_strategy, st.integers(0, 2**32 - 1),
       st.sampled_from([(4, "after_lead"), (3, "after_lead"), (3, "always"), (3, "never"),
                        (2, "after_lead")]))
def test_exclusions_extended_card_by_card_are_those_of_the_whole_play(rules, seed, table):
    """The exclusions kept from a few cards back and extended by the cards since are those
    the whole play gives: each seat asks after every card, or (with an odd seed) only when
    it is to move, as bots in a round do."""
    players, dummy_open = table
    rules = replace(rules, players=players, dummy_open=dummy_open)
    game = Game(Deal.random(seed), "D", "W", "EW", rules, dummy=Seat.E if players == 3 else None)
    while not game.is_over:
        for seat in Seat if seed % 2 == 0 else [game.to_move]:
            assert excluded_cards(game, seat) == _excluded_cards(game, seen(game, seat)) \
                == replayed_exclusions(game, seat)
        legal = game.legal_cards()
        game.play(legal[seed % len(legal)])
        seed = seed * 6364136223846793005 + 1442695040888963407 & (2**64 - 1)


def test_a_revoke_is_refused_by_name_whoever_asks():
    """A card placed against a duty (verzaken): no deal agrees with the play, and every seat
    is told which card broke which duty, as the round's replay tells it."""
    game = Game(Deal.random(1), "H", "N", "NS")
    game.play("C9")
    game.place("D8")    # E holds CT and CK
    for seat in Seat:
        with pytest.raises(IllegalPlayError, match="seat E: D8 breaks the duty to follow suit"):
            excluded_cards(game, seat)
        with pytest.raises(IllegalPlayError, match="D8 breaks the duty"):
            sample_worlds(game, seat, 4, seed=1)


def test_excluded_cards_name_the_suit_not_followed():
    game = Game(DEAL, "S", "S", "EW")
    game.replay("SK S9 SA SJ  HJ HA HT H9  C9 CJ C7 CT  ST SQ S8 S7  D8 D7 DJ D9  CQ C8 DT")
    # E played DT to a club lead: from S's view E can hold none of the clubs S cannot see.
    unseen_clubs = {c for s in (Seat.N, Seat.E, Seat.W) for c in game.hands[s] if c.suit == Suit.C}
    assert unseen_clubs and unseen_clubs <= excluded_cards(game, Seat.S)[Seat.E]
    assert not unseen_clubs & excluded_cards(game, Seat.S)[Seat.N]


def test_the_same_seed_gives_the_same_worlds_and_weights_steer_them():
    game = Game(DEAL, "H", "E", "NS")
    assert sample_worlds(game, "N", 30, seed=5) == sample_worlds(game, "N", 30, seed=5)
    assert sample_worlds(game, "N", 30, seed=5) != sample_worlds(game, "N", 30, seed=6)
    heart_ace_east = sample_worlds(game, "N", 50, seed=5,
                                   weights=lambda w: 1.0 if Card.parse("HA") in w["E"] else 0.0)
    assert all(Card.parse("HA") in w["E"] for w in heart_ace_east)


# -- single-dummy analyses ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def view():
    game = Game(DEAL, "S", "S", "EW")
    game.replay("SK")
    return game, analyse_view(game, worlds=12, seed=2, workers=2)


def test_the_means_are_the_means_of_solve_moves_over_the_worlds(view):
    game, analysis = view
    assert len(analysis.worlds) == 12 and analysis.seat == Seat.W
    sums = {card: 0 for card in analysis.cards}
    for world in analysis.worlds:
        for card, value in solve_moves(world, game.trump, game.leader, game.playing,
                                       played=game.played).items():
            sums[card] += value          # W is EW, the playing team: no sign change
    for card, stats in analysis.cards.items():
        assert stats.mean == pytest.approx(sums[card] / 12)
        assert 0 <= stats.optimal <= 1 and 0 <= stats.makes <= 1


def test_the_worker_count_does_not_change_the_view(view):
    game, analysis = view
    alone = analyse_view(game, worlds=12, seed=2, workers=1)
    assert alone.cards == analysis.cards


def test_when_every_card_is_known_single_dummy_is_double_dummy():
    game = Game(DEAL, "S", "S", "EW")
    game.replay("SK S9 SA SJ  HJ HA HT H9  C9 CJ C7 CT  ST SQ S8 S7  D8 D7 DJ D9  "
                "CQ C8 DT DA  CK HQ DQ H7  CA HK DK")
    assert count_worlds(game, game.to_move) == 1
    analysis = analyse_view(game, worlds=3)
    sign = 1 if game.to_move.team == game.playing else -1
    dd = solve_moves(DEAL, "S", "S", "EW", played=game.played)
    assert {c: s.mean for c, s in analysis.cards.items()} == {c: sign * v for c, v in dd.items()}


def test_a_view_needs_the_player_to_move():
    game = Game(DEAL, "S", "S", "EW")
    with pytest.raises(SolverError, match="seat N is not to play: S is"):
        analyse_view(game, "N")


def test_play_analysis_separates_unlucky_cards_from_mistakes():
    # S's D8 loses 14 double dummy (DJ was best), but from what S could see D8 is best.
    analysis = analyse_play(GameRecord.load(UNLUCKY), worlds=64, seed=1)
    last = analysis.steps[-1]
    assert (last.card, last.loss, last.best_cards) == (Card.parse("D8"), 14, [Card.parse("DJ")])
    assert last.sd_loss == 0 and last.sd_best_cards == [Card.parse("D8")]
    assert last.verdict == "unlucky"
    assert "Unlucky" in analysis.summary()
    assert "trick 4 S D8 (-14; expected loss 0.0 [0.0, 0.0])" in analysis.summary()
    assert all(s.sd_loss >= 0 for s in analysis.steps)
    again = type(analysis).from_dict(json.loads(json.dumps(analysis.to_dict())))
    assert again.steps[-1].sd_loss == 0 and again.steps[-1].verdict == "unlucky"


def test_a_card_lost_single_dummy_is_a_mistake():
    analysis = analyse_play(GameRecord.load(EXAMPLE), worlds=8, seed=1)
    third = analysis.steps[2]            # N's SA throws away 66 points, and it shows
    assert third.verdict == "mistake" and third.sd_loss > 20


def test_bid_analysis_from_each_seats_own_hand():
    bids = analyse_bidding(DEAL, "W", procedure="free", bid=("N", "H"), worlds=6, seed=4)
    option = bids.option("N", "H")
    worlds = sample_worlds(Game(DEAL, "C", "N", "NS"), "N", 6, seed=_seat_seed(4, Seat.N))
    solver = Solver()
    values = [solver.value(Game(w, "H", option.leader, "NS")) for w in worlds]
    assert option.sd_value == pytest.approx(sum(values) / 6)
    assert option.sd_makes == pytest.approx(sum(v > 0 for v in values) / 6)
    assert "with what N held" in bids.verdict()


def _seat_seed(seed, seat):
    from solver.model.streams import derive
    return derive(seed, seat)


def test_the_commands_take_worlds(capsys):
    status = main(["view", DEAL.to_pbn(), "--trump", "S", "--leader", "S", "--playing", "EW",
                   "--played", "SK", "--worlds", "4", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["seat"] == "W" and len(out["worlds"]) == 4
    assert main(["analyse", str(EXAMPLE), "--worlds", "2"]) == 0
    assert "verdict" in capsys.readouterr().out


def test_labels_with_worlds_write_the_single_dummy_means(tmp_path):
    import numpy as np
    from solver.labels import LabelConfig, generate, load
    generate(LabelConfig(deals=2, positions="root", format="npz", worlds=4), tmp_path, workers=1)
    rows = load(tmp_path)
    legal = rows["values"] != -32768
    assert (np.isnan(rows["sd_values"]) == ~legal).all()


# The compiled engine blocked: a meta-path hook makes importing it fail, as a missing build would.
WITHOUT_ENGINE = '''
import sys

class BlockEngine:
    def find_spec(self, name, path=None, target=None):
        if name == "solver.engine._engine":
            raise ImportError("the compiled engine is blocked in this test")

sys.meta_path.insert(0, BlockEngine())
import solver.model, solver.model.worlds, solver.analysis.worlds
from solver import Deal, Game
game = Game(Deal.random(1), "H", "E", "NS")
game.replay("CT CJ C7 C9")
assert solver.analysis.worlds.sample_worlds is solver.model.worlds.sample_worlds
assert len(solver.model.worlds.sample_worlds(game, "S", 3, seed=1)) == 3
assert "solver.engine" not in sys.modules, "solver.engine was imported"
try:
    from solver import solve_table
except ImportError:
    print("engine blocked")
'''


def test_model_and_worlds_work_without_the_compiled_engine():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", WITHOUT_ENGINE], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "engine blocked"    # the hook does block the engine
