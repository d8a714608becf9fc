"""The rules of play in game.py: duties, trick winner, roem in a trick, replay, errors."""
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, positions, rules_strategy, seeds, seats, suits, teams
from solver import Card, Deal, Game, IllegalPlayError, Rules, Seat, Suit, Team, parse_cards
from solver.model.cards import ALL_CARDS
from solver.model.game import legal_cards, trick_roem, winning_index

C = parse_cards


def legal(hand, trick, trump="S", leader=Seat.N, **rules):
    seat = Seat((leader + len(C(trick))) % 4)
    cards, _ = legal_cards(C(hand), C(trick), seat, leader, Suit.parse(trump), Rules(**rules))
    return {str(c) for c in cards}


# -- duties ----------------------------------------------------------------------------------

def test_seed_001_no_undertrump_while_holding_another_suit():
    # Hearts 7 led, spades trump, second hand ruffs with the spade queen; the third hand
    # holds spade 8, spade 7 and diamond ace: only the diamond ace may be played.
    assert legal("S8 S7 DA", "H7 SQ", undertrump="forbidden") == {"DA"}


def test_seed_001_with_undertrump_must_a_lower_trump_is_required():
    assert legal("S8 S7 DA", "H7 SQ", undertrump="must") == {"S8", "S7"}


def test_seed_001_with_undertrump_free_any_card():
    assert legal("S8 S7 DA", "H7 SQ", undertrump="free") == {"S8", "S7", "DA"}


def test_undertrump_allowed_when_holding_only_lower_trumps():
    assert legal("S8 S7", "H7 SQ", undertrump="forbidden") == {"S8", "S7"}


def test_must_follow_suit():
    assert legal("H8 HA SJ DA", "H7") == {"H8", "HA"}


def test_trump_led_must_beat_the_highest_trump():
    assert legal("S7 SA S9 HA", "SK") == {"SA", "S9"}


def test_trump_led_any_trump_when_unable_to_beat():
    assert legal("S7 S8 HA", "SJ") == {"S7", "S8"}


def test_void_without_trump_any_card():
    assert legal("D7 CA", "H7") == {"D7", "CA"}


def test_void_must_trump_an_untrumped_trick():
    assert legal("S7 DA", "H7 HA") == {"S7"}


def test_void_must_overtrump():
    assert legal("S9 S7 DA", "H7 SQ") == {"S9"}


def test_amsterdam_partner_winning_may_discard():
    # N leads HA and wins so far; S (partner) is void in hearts.
    assert legal("S7 DA", "HA H7", trump_duty="amsterdam") == {"S7", "DA"}


def test_rotterdam_partner_winning_must_still_trump():
    assert legal("S7 DA", "HA H7", trump_duty="rotterdam") == {"S7"}


def test_amsterdam_partner_trumped_may_not_undertrump_with_other_cards():
    # N leads H7, E ruffs with SQ, S follows; W (E's partner) may overtrump or discard,
    # but not undertrump.
    assert legal("SK S7 DA", "H7 SQ H8", trump_duty="amsterdam") == {"SK", "DA"}


def test_amsterdam_partner_trumped_undertrump_must_allows_any_card():
    assert legal("SK S7 DA", "H7 SQ H8", trump_duty="amsterdam", undertrump="must") == \
        {"SK", "S7", "DA"}


def test_rotterdam_partner_trumped_must_overtrump():
    assert legal("SK S7 DA", "H7 SQ H8", trump_duty="rotterdam") == {"SK"}


# -- tricks and roem -------------------------------------------------------------------------

def test_highest_trump_wins():
    assert winning_index(C("HA SQ S9 S7"), Suit.S) == 2


def test_highest_card_of_the_led_suit_wins_without_trump():
    assert winning_index(C("H7 DA HT H9"), Suit.S) == 2


@pytest.mark.parametrize("cards, roem", [
    ("SJ SQ SK H7", 40),       # trump J Q K: run 20 + stuk 20
    ("SA SK SQ SJ", 70),       # trump A K Q J: run 50 + stuk 20
    ("HJ SJ DJ CJ", 200),      # four jacks
    ("HA SA DA CA", 100),
    ("H9 S9 D9 C9", 0),        # nines score nothing by default
    ("H7 H8 H9 DA", 20),
    ("HT HJ HQ HK", 50),
    ("HA H7 H8 DA", 0),        # no wrap: A is high only
    ("SK SQ H7 D8", 20),       # stuk alone
])
def test_roem_on_the_table(cards, roem):
    assert trick_roem(C(cards), Suit.S, Rules()) == roem


def test_stuk_trick_off_and_roem_none():
    assert trick_roem(C("SJ SQ SK H7"), Suit.S, Rules(stuk="none")) == 20
    assert trick_roem(C("SJ SQ SK H7"), Suit.S, Rules(roem="none")) == 0


def test_four_of_a_kind_option_sets_each_rank():
    rules = Rules(four_of_a_kind={"J": 100, "9": 50})
    assert trick_roem(C("HJ SJ DJ CJ"), Suit.H, rules) == 100
    assert trick_roem(C("H9 S9 D9 C9"), Suit.H, rules) == 50


def plain_trick_roem(cards, trump, rules):
    """Roem of a trick, counted the plain way (each suit's ranks sorted, runs walked): the
    reference for trick_roem's table of runs."""
    if rules.roem != "table":
        return 0
    roem = 0
    if len(cards) == 4 and len({c.rank for c in cards}) == 1:
        roem += rules.four_of_a_kind_value(cards[0].rank)
    for suit in Suit:
        in_suit = sorted(c.rank for c in cards if c.suit == suit)
        run = longest = 1 if in_suit else 0
        for a, b in zip(in_suit, in_suit[1:]):
            run = run + 1 if b == a + 1 else 1
            longest = max(longest, run)
        roem += 20 if longest == 3 else 50 if longest >= 4 else 0
    stuk = {Card(trump, "K"), Card(trump, "Q")} if trump is not None else None
    if stuk and rules.stuk == "trick" and stuk <= set(cards):
        roem += 20
    return roem


def test_trick_roem_equals_the_plain_count_for_every_trick():
    # Every set of four cards (and every third set of one to three), each under one of the
    # trumps or none and one of two rule sets (the default, and four of a kind and stuk
    # counted otherwise), taken in turn.
    variants = [Rules(), Rules(stuk="none", four_of_a_kind={"J": 100, "9": 50, "7": 10})]
    trumps = [*Suit, None]
    for size in (1, 2, 3, 4):
        for i, cards in enumerate(itertools.combinations(ALL_CARDS, size)):
            if size < 4 and i % 3:
                continue
            trump, rules = trumps[i % 5], variants[i % 2]
            assert trick_roem(cards, trump, rules) == plain_trick_roem(cards, trump, rules), cards


def all_trumps_deal():
    return Deal.from_pbn("N:-.AKQJT987.-.- AKQJ.-.AKQJ.- T987.-.-.AKQJ -.-.T987.T987")


def test_stuk_hand_scores_when_the_holder_plays_the_second_card():
    game = Game(all_trumps_deal(), trump="H", leader="N", playing="NS", rules=Rules(stuk="hand"))
    game.replay("HK SA CA D7")
    assert game.tricks[0].roem == 0
    game.replay("HQ SK CK D8")
    assert game.tricks[1].roem == 20


def test_pit_when_one_team_wins_all_tricks():
    game = Game(all_trumps_deal(), trump="H", leader="N", playing="NS", rules=Rules(stuk="none"))
    while not game.is_over:
        game.play(game.legal_cards()[0])
    assert game.tally("NS").pit == 100
    assert game.tally("NS").card_points == 162
    assert game.tally("EW") .total == 0


# -- playing a round -------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(seeds, suits, seats, teams, rules_strategy, st.randoms(use_true_random=False))
def test_card_points_and_last_trick_always_total_162(seed, trump, leader, playing, rules, rnd):
    game = Game(Deal.random(seed), trump, leader, playing, rules)
    while not game.is_over:
        legal = game.legal_cards()
        assert legal, "the player to move always has a legal card"
        game.play(rnd.choice(legal))
    factor = 2 if rules.is_double(trump) else 1
    assert sum(game.tally(t).card_points for t in Team) == 162 * factor


@settings(max_examples=40, deadline=None)
@given(positions(tricks_left=st.integers(0, 8)))
def test_undo_restores_the_position(game):
    before = (list(game.played), [set(h) for h in game.hands], game.tallies())
    if game.played:
        card = game.undo()
        game.play(card)
    assert (list(game.played), [set(h) for h in game.hands], game.tallies()) == before


def test_replay_rejects_a_card_not_in_hand():
    game = Game(Deal.random(1), trump="H", leader="N", playing="NS")
    with pytest.raises(IllegalPlayError, match="trick 1, seat N: N does not hold SJ"):
        game.play("SJ")


def test_illegal_card_names_card_seat_trick_and_duty():
    deal = Deal.from_pbn("N:A87.QJ.QJ.9 JT.K.KT8.KT Q9.T97.9.AJ K.A8.A7.Q87")
    game = Game(deal, trump="H", leader="N", playing="NS")
    game.play("SA")
    with pytest.raises(IllegalPlayError) as err:
        game.play("HK")
    assert "trick 1, seat E: HK breaks the duty to follow suit" in str(err.value)
    assert (err.value.card, err.value.seat, err.value.trick, err.value.duty) == \
        (Card.parse("HK"), Seat.E, 1, "follow suit")


def test_unparseable_card_in_a_replay_is_named():
    game = Game(Deal.random(1), trump="H", leader="N", playing="NS")
    with pytest.raises(IllegalPlayError, match="not a card: 'Q9'"):
        game.replay("SA Q9")


def test_trump_must_be_a_suit():
    with pytest.raises(ValueError, match="trump: unknown suit 'X'"):
        Game(Deal.random(1), trump="X", leader="N", playing="NS")


def test_copy_of_a_game_with_a_placed_revoke_is_the_same_position():
    # place() puts a card down without judging its duties (a recorded revoke); copy() must
    # reproduce that position, not judge the card again.
    deal = Deal.from_pbn("N:A87.QJ.QJ.9 JT.K.KT8.KT Q9.T97.9.AJ K.A8.A7.Q87")
    game = Game(deal, trump="H", leader="N", playing="NS")
    game.play("SA")
    game.place("HK")            # E holds spades: a revoke
    copy = game.copy()
    assert copy.played == game.played and copy.hands == game.hands
    assert copy.current_trick == game.current_trick


def test_a_deep_copy_is_the_same_position_and_moves_on_its_own():
    import copy as copying
    game = Game(Deal.random(4), "S", "N", "EW", Rules.rotterdam())
    for _ in range(6):
        game.play(game.legal_cards()[-1])
    other = copying.deepcopy(game)
    assert (other.played, other.hands, other.tricks, other.current_trick) == \
        (game.played, game.hands, game.tricks, game.current_trick)
    assert other.legal_cards() == game.legal_cards() and other.tallies() == game.tallies()
    while not other.is_over:
        other.play(other.legal_cards()[0])
    assert len(game.played) == 6 and len(game.current_trick) == 2
    assert sum(len(hand) for hand in game.hands) == 26


@settings(max_examples=60, **SLOW)
@given(positions(rules=rules_strategy, tricks_left=st.integers(1, 8)))
def test_check_allows_exactly_the_legal_cards(game):
    """Game.check's shortcut (a lead, or following a plain suit) agrees with legal_cards."""
    if game.is_over:
        return
    legal = game.legal_cards()
    for card in sorted(game.hands[game.to_move]):
        if card in legal:
            assert game.check(card) == card
        else:
            with pytest.raises(IllegalPlayError, match="breaks the duty"):
                game.check(card)
