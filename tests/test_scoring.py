"""Worked examples of docs/rules.md and the seeds: nat, schoppen dubbel, kraken, roem in hand."""
import pytest

from solver import Rules, Suit, Team, parse_cards
from solver.model.cards import ALL_CARDS, CARD_POINTS_TOTAL
from solver.model.rules import MAKE_THRESHOLD
from solver.model.scoring import (Tally, card_points_to_make, counted_hand_roem, final_scores,
                                  hand_roem, is_made, make_is_points_above_zero,
                                  objective_value, pit_bonus, revoke_scores, value_for_team)

NS, EW = Team.NS, Team.EW


def test_90_card_points_against_72_plus_20_roem_is_nat():
    tallies = {NS: Tally(90), EW: Tally(72, roem=20)}
    assert not is_made(tallies, NS, Suit.H, Rules())
    assert final_scores(tallies, NS, Suit.H, Rules()) == {NS: 0, EW: 182}


def test_made_each_team_scores_its_own_total():
    tallies = {NS: Tally(90, roem=20), EW: Tally(72)}
    assert final_scores(tallies, NS, Suit.H, Rules()) == {NS: 110, EW: 72}


def test_equal_totals_are_nat():
    assert not is_made({NS: Tally(81), EW: Tally(81)}, NS, Suit.H, Rules())


def test_schoppen_dubbel_76_x2_plus_20_against_86_x2_is_nat():
    rules = Rules(double_suits=["S"])
    tallies = {NS: Tally(76 * 2, roem=20), EW: Tally(86 * 2)}
    assert not is_made(tallies, NS, Suit.S, rules)
    assert final_scores(tallies, NS, Suit.S, rules) == {NS: 0, EW: 324 + 20}


def test_same_points_with_another_trump_are_made():
    assert is_made({NS: Tally(76, roem=20), EW: Tally(86)}, NS, Suit.H, Rules(double_suits=["S"]))


def test_kraken_324_plus_40_is_364():
    # North makes hearts trump, West cracks: EW is obligated and needs strictly more.
    rules = Rules(multiplier=2)
    tallies = {NS: Tally(61, roem=40), EW: Tally(101)}
    assert final_scores(tallies, EW, Suit.H, rules) == {NS: 364, EW: 0}


def test_kraken_winner_takes_all():
    rules = Rules(multiplier=4)
    assert final_scores({NS: Tally(100, roem=20), EW: Tally(62)}, NS, Suit.H, rules) == \
        {NS: 162 * 4 + 20, EW: 0}


def test_nat_82_counts_card_points_only():
    rules = Rules(nat="82")
    assert is_made({NS: Tally(82), EW: Tally(80, roem=50)}, NS, Suit.H, rules)
    assert not is_made({NS: Tally(81, roem=100), EW: Tally(81)}, NS, Suit.H, rules)
    assert is_made({NS: Tally(164), EW: Tally(160)}, NS, Suit.S, Rules(nat="82", double_suits="S"))


def test_nat_none_each_team_keeps_its_total():
    assert final_scores({NS: Tally(60), EW: Tally(102)}, NS, Suit.H, Rules(nat="none")) == \
        {NS: 60, EW: 102}


def test_pit_is_100():
    assert pit_bonus(NS, {NS: 8, EW: 0}, NS, Rules()) == 100
    assert pit_bonus(EW, {NS: 0, EW: 8}, NS, Rules()) == 100
    assert pit_bonus(EW, {NS: 0, EW: 8}, NS, Rules(pit="playing")) == 0
    assert pit_bonus(NS, {NS: 8, EW: 0}, NS, Rules(pit_bonus=90)) == 90
    assert pit_bonus(NS, {NS: 7, EW: 1}, NS, Rules()) == 0


def test_zero_bonus_when_defenders_score_nothing():
    rules = Rules(zero_bonus=50)
    assert final_scores({NS: Tally(262, pit=100), EW: Tally(0)}, NS, Suit.H, rules)[NS] == 412


def test_verzaken_gives_the_others_162_plus_penalty_plus_roem():
    assert revoke_scores(NS, 20, Rules()) == {NS: 0, EW: 282}
    assert revoke_scores(EW, 0, Rules(revoke_penalty=200)) == {EW: 0, NS: 362}


@pytest.mark.parametrize("hand, expected", [
    ("H7 H8 H9 SA DA CA S7 D9", (20, 0)),
    ("H7 H8 H9 HT SA DA CA S7", (50, 0)),
    ("H7 H8 H9 HT HJ SA DA C7", (100, 0)),
    ("H7 H8 H9 HT HJ HQ HK HA", (120, 20)),      # best split: 5 + 3; stuk
    ("HA SA DA CA HK HQ HJ C7", (120, 20)),      # four aces first, then K Q J; stuk
    ("HJ SJ DJ CJ HT H9 H8 C7", (220, 0)),       # four jacks 200, then T 9 8
])
def test_roem_in_hand(hand, expected):
    assert hand_roem(parse_cards(hand), Suit.H, Rules(roem="hand")) == expected


def test_afkeuren_the_team_with_more_roem_keeps_it():
    # Seed 001: NS 50 + 40 against EW 20 + 20: 90 for NS, nothing for EW.
    hands = {NS: [parse_cards("H7 H8 H9 HT SA DA CA S7"), parse_cards("C7 C8 C9 D7 D8 D9 S8 S9")],
             EW: [parse_cards("SQ SK SA D7 CA HJ DJ D8"), parse_cards("CQ CK CA DQ S7 H7 C7 S8")]}
    counted = counted_hand_roem(hands, Suit.H, Rules(roem="hand"), {NS: 4, EW: 4})
    assert counted == {NS: 90, EW: 0}


def test_afkeuren_never_rejects_stuk():
    hands = {NS: [parse_cards("H7 H8 H9 HT SA DA CA S7")], EW: [parse_cards("HK HQ S8 D8 C8 S9 D9 C9")]}
    assert counted_hand_roem(hands, Suit.H, Rules(roem="hand"), {NS: 4, EW: 4}) == {NS: 50, EW: 20}


def test_hand_roem_needs_a_trick_when_the_house_rule_is_on():
    hands = {NS: [parse_cards("H7 H8 H9 HT SA DA CA S7")], EW: [parse_cards("HK HQ S8 D8 C8 S9 D9 C9")]}
    rules = Rules(roem="hand", hand_roem_needs_trick=True)
    assert counted_hand_roem(hands, Suit.H, rules, {NS: 0, EW: 8}) == {NS: 0, EW: 20}


def test_objective_values():
    tallies = {NS: Tally(90), EW: Tally(72, roem=20)}
    assert objective_value("points", tallies, NS, Suit.H, Rules()) == -2
    assert objective_value("score", tallies, NS, Suit.H, Rules()) == -182
    assert objective_value("make", tallies, NS, Suit.H, Rules()) is False
    with pytest.raises(ValueError, match="unknown objective 'win'"):
        objective_value("win", tallies, NS, Suit.H, Rules())


# -- the numbers of a round, and values seen from either team ---------------------------------

@pytest.mark.parametrize("trump", list(Suit))
def test_a_round_holds_162_card_points_with_the_last_trick(trump):
    assert CARD_POINTS_TOTAL == 162
    assert sum(card.points(trump) for card in ALL_CARDS) + 10 == CARD_POINTS_TOTAL


def test_nat_82_needs_82_card_points_or_164_doubled():
    assert MAKE_THRESHOLD == 82
    assert card_points_to_make(Rules(nat="82"), Suit.H) == 82
    assert card_points_to_make(Rules(nat="82", double_suits=["S"]), Suit.S) == 164


@pytest.mark.parametrize("nat", ["majority", "82", "none"])
@pytest.mark.parametrize("multiplier", [1, 2])
def test_make_is_points_above_zero_exactly_when_card_points_do_not_decide(nat, multiplier):
    rules = Rules(nat=nat, multiplier=multiplier)
    # 81 card points and 40 roem against 81: ahead on points, short of 82 card points.
    tallies = {NS: Tally(81, roem=40), EW: Tally(81)}
    points = objective_value("points", tallies, NS, Suit.H, rules)
    if make_is_points_above_zero(rules):
        assert is_made(tallies, NS, Suit.H, rules) == (points > 0)
    else:
        assert (nat, multiplier) == ("82", 1) and points > 0
        assert not is_made(tallies, NS, Suit.H, rules)


def test_values_seen_from_the_defenders():
    assert value_for_team(12, EW, playing=NS) == -12
    assert value_for_team(12, NS, playing=NS) == 12
    assert value_for_team(True, EW, playing=NS) is False      # the defenders' aim is nat
    assert value_for_team(False, EW, playing=NS) is True
    assert value_for_team(True, NS, playing=NS) is True
    for value in (-30, 0, 7, True, False):
        assert value_for_team(value_for_team(value, EW, NS), EW, NS) == value
