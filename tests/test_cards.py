import pytest

from solver import Card, Rank, Seat, Suit, SolverError, Team, parse_cards


@pytest.mark.parametrize("text", ["HA", "ha", "♥A", "♡A", " HA "])
def test_card_parses_from_letters_and_symbols(text):
    assert Card.parse(text) == Card(Suit.H, Rank.ACE)


@pytest.mark.parametrize("text", ["H10", "HT", "h10", "ht", "♥10"])
def test_ten_is_written_T_or_10(text):
    assert str(Card.parse(text)) == "HT"


def test_card_prints_with_symbols_on_request():
    assert Card.parse("ST").to_str(symbols=True) == "♠T"


def test_card_repr_round_trips():
    card = Card.parse("DQ")
    assert eval(repr(card), {"Card": Card}) is card


@pytest.mark.parametrize("text", ["", "H", "X7", "H1", "H11", "HAA", "7H"])
def test_bad_card_raises_value_error_naming_it(text):
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


def test_every_card_has_a_unique_index():
    assert sorted(c.index for s in Suit for r in Rank for c in [Card(s, r)]) == list(range(32))


def test_card_points_total_152():
    for trump in Suit:
        assert sum(Card(s, r).points(trump) for s in Suit for r in Rank) == 152


def test_trump_order_jack_nine_ace_ten_king_queen_eight_seven():
    order = sorted((Card(Suit.H, r) for r in Rank), key=lambda c: -c.strength(Suit.H))
    assert [c.rank.letter for c in order] == list("J9ATKQ87")


def test_plain_order_ace_ten_king_queen_jack_nine_eight_seven():
    order = sorted((Card(Suit.C, r) for r in Rank), key=lambda c: -c.strength(Suit.H))
    assert [c.rank.letter for c in order] == list("ATKQJ987")


def test_seats_play_clockwise_and_partners_sit_opposite():
    assert Seat.N.left == Seat.E and Seat.W.left == Seat.N
    assert Seat.N.partner == Seat.S and Seat.E.team == Team.EW


def test_parse_cards_takes_a_string_or_a_list():
    assert parse_cards("HA h10") == parse_cards(["HA", Card.parse("HT")])


def test_unknown_seat_and_team_are_named():
    with pytest.raises(ValueError, match="unknown seat 'X'"):
        Seat.parse("X")
    with pytest.raises(ValueError, match="unknown team 'NE'"):
        Team.parse("NE")


def test_to_str_refuses_a_notation_in_the_place_of_symbols():
    card = Card.parse("HK")
    with pytest.raises(SolverError, match=r"give the notation by name, to_str\(notation='nl'\)"):
        card.to_str("nl")
    with pytest.raises(SolverError, match="symbols must be True or False, got 1"):
        card.to_str(1)
    assert card.to_str(notation="nl") == "HH" and card.to_str(True, "nl") == "♥H"
