"""A recorded bid judged by the bidding procedure: a bid it does not allow is reported as not
allowed, and "the best choice" compares only the trumps open to that seat in the round it
chose; the same verdict in the text, the JSON and the HTML. The draaikaart table shows its two
rounds apart."""
import json

import pytest

from solver import BidAnalysis, Deal, GameRecord, Rules, Suit, analyse_bidding, analyse_play, \
    solve_table
from solver.cli import main
from solver.html import bid_analysis_html, render

# The deal of the trial: under clubs only clubs may be trump, and N's team makes spades (+156).
TRIAL = "N:AJ9.K7.AT.8 T7.AQ8.K9.7 KQ.T9.Q8.AT 8.J.J7.KQJ9"
# N's team: C -30, D -26, H +50 makeable, S +2 makeable, with W dealing (N leads).
DEAL = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"


def bid(deal=DEAL, **kwargs):
    return analyse_bidding(Deal.from_pbn(deal), dealer="W", rules=Rules(), workers=1, **kwargs)


@pytest.fixture(scope="module")
def clubs():
    return bid(TRIAL, procedure="clubs", bid=("N", "S"))


# -- a bid the procedure does not allow -----------------------------------------------------

def test_a_bid_the_procedure_does_not_allow_is_not_allowed_and_not_the_best_choice(clubs):
    text = clubs.verdict()
    assert text.startswith("N chose S: makeable (+156); not allowed: clubs does not let N "
                           "choose S (")
    assert "best choice" not in text and "better" not in text
    assert "every seat may choose only C" in text


def test_the_not_allowed_verdict_is_the_same_in_text_json_and_html(clubs):
    judged = clubs.judge_bid()
    assert (judged.kind, judged.makeable, judged.value) == ("not_allowed", True, 156)
    assert clubs.verdict() in str(clubs)
    data = clubs.to_dict()["verdict"]
    assert data["kind"] == "not_allowed" and data["makeable"] is True and data["value"] == 156
    assert data["text"] == clubs.verdict() and data["better"] is None
    html = bid_analysis_html(clubs)
    assert 'data-bid-verdict="not_allowed"' in html and "not allowed: clubs" in html


def test_who_may_choose_what_is_named_for_a_single_chooser():
    text = bid(procedure="utrechts", bid=("N", "S")).verdict()
    assert "not allowed" not in text                        # N, left of W, may choose anything
    text = bid("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ", procedure="clubs",
               bid=("E", "H")).verdict()
    assert "not allowed: clubs does not let E choose H (every seat may choose only C)" in text


def test_the_only_open_choice_under_clubs_is_the_best_choice():
    judged = bid(TRIAL, procedure="clubs", bid=("N", "C")).judge_bid()
    assert judged.kind == "best" and judged.compared == (Suit.C,)
    assert "the best choice" in judged.text and "not allowed" not in judged.text


# -- the best choice, in the round the seat chose ---------------------------------------------

def test_taking_the_turned_suit_is_judged_among_the_round_1_choices():
    # N took the turned S in round 1: H (+50) was a round-2 trump, not open to N then.
    judged = bid(procedure="draaikaart", turned="S", bid=("N", "S")).judge_bid()
    assert judged.kind == "best" and judged.round == "round 1" and judged.compared == (Suit.S,)
    assert "better" not in judged.text and "round 1" in judged.text


def test_a_round_2_choice_is_not_compared_with_the_turned_suit():
    # Turned H (+50 for N's team): in round 2 N may name C, D or S, and S (+2) is the best of them.
    judged = bid(procedure="draaikaart", turned="H", bid=("N", "S")).judge_bid()
    assert judged.kind == "best" and judged.compared == (Suit.C, Suit.D, Suit.S)
    assert "H" not in judged.text.split(";", 1)[1]


def test_a_worse_round_2_choice_names_the_better_trump_of_that_round():
    judged = bid(procedure="draaikaart", turned="S", bid=("N", "C")).judge_bid()
    assert judged.kind == "worse" and judged.better.trump == Suit.H
    assert "H was better (+50, makeable)" in judged.text and "round 2" in judged.text
    data = judged.to_dict()
    assert data["better"] == {"trump": "H", "value": 50, "makeable": True}
    assert data["compared"] == ["C", "D", "H"] and data["round"] == "round 2"


def test_a_free_choice_is_compared_with_every_trump():
    judged = bid(procedure="free", bid=("E", "C")).judge_bid()
    assert judged.kind == "best" and judged.compared == (Suit.C, Suit.D, Suit.H, Suit.S)


# -- JSON ----------------------------------------------------------------------------------------

def test_the_analysis_round_trips_with_the_new_verdict(clubs):
    assert BidAnalysis.from_dict(json.loads(json.dumps(clubs.to_dict()))) == clubs


def test_the_old_json_with_a_verdict_string_still_reads(clubs):
    old = clubs.to_dict()
    old["verdict"] = ("N chose S: makeable (+156); the best choice (note: clubs does not let N "
                      "choose S)")
    back = BidAnalysis.from_dict(old)
    assert back == clubs and back.judge_bid().kind == "not_allowed"


def test_no_recorded_bid_gives_no_verdict():
    analysis = bid(procedure="free")
    assert analysis.judge_bid() is None and analysis.to_dict()["verdict"] is None


# -- the draaikaart table ------------------------------------------------------------------------

def test_the_draaikaart_table_shows_round_1_and_round_2_apart():
    text = str(bid(procedure="draaikaart", turned="S"))
    lines = text.splitlines()
    one = next(i for i, line in enumerate(lines) if line.startswith("round 1"))
    two = next(i for i, line in enumerate(lines) if line.startswith("round 2"))
    assert one < two
    assert "the turned S" in lines[one] and "any seat" in lines[one]
    assert lines[one + 1].split() == ["seat", "♠", "S"]               # only the turned suit
    assert lines[two + 1].split() == ["seat", "♣", "C", "♦", "D", "♥", "H"]
    assert lines[one + 2].split() == ["N", "+2*!"]                   # N must play it when all pass
    assert lines[two + 2].split() == ["N", "-30", "-26", "+50*"]


def test_who_is_forced_follows_on_all_pass():
    text = str(bid(procedure="draaikaart", turned="S", on_all_pass="dealer_chooses"))
    lines = text.splitlines()
    two = next(i for i, line in enumerate(lines) if line.startswith("round 2"))
    assert "W must choose when all pass" in lines[two]
    assert lines[two + 5].split() == ["W", "+30*!", "+26*!", "-50", "!"]


def test_other_procedures_keep_one_table():
    text = str(bid(procedure="clubs"))
    assert "round 1" not in text and "- not open to that seat" in text


def test_the_draaikaart_html_has_a_table_per_round():
    html = bid_analysis_html(bid(procedure="draaikaart", turned="S", bid=("N", "S")))
    assert html.count('<table class="grid"') == 2
    assert 'data-round="round 1"' in html and 'data-round="round 2"' in html
    assert 'data-bid-verdict="best"' in html


# -- the report ----------------------------------------------------------------------------------

def test_the_report_shows_the_verdict_of_a_bid_analysis_it_is_given():
    record = GameRecord.load("examples/game.json")
    table = solve_table(record.deal, record.rules, workers=1)
    analysis = analyse_play(record, workers=1)
    plain = render(analysis, table, 0)
    assert "of the four trumps with" in plain and "data-bid-verdict" not in plain
    bids = analyse_bidding(record.deal, record.dealer, record.rules, procedure="clubs",
                           bid=("E", record.trump), workers=1)
    page = render(analysis, table, 0, bids=bids)
    assert 'data-bid-verdict="not_allowed"' in page and bids.verdict() in page


def test_the_report_refuses_a_bid_analysis_of_another_game():
    record = GameRecord.load("examples/game.json")
    table = solve_table(record.deal, record.rules, workers=1)
    analysis = analyse_play(record, workers=1)
    other = analyse_bidding(record.deal, record.dealer, record.rules, procedure="free",
                            bid=("N", "H"), workers=1)
    with pytest.raises(ValueError, match="bids must judge this round's bid"):
        render(analysis, table, 0, bids=other)
    leading = analyse_bidding(record.deal, record.dealer, record.rules, procedure="free",
                              chooser_leads=True, bid=("W", record.trump), workers=1)
    with pytest.raises(ValueError, match=f"with {record.leader} leading"):
        render(analysis, table, 0, bids=leading)   # W would have led, not S
    with pytest.raises(ValueError, match="bids must be a BidAnalysis"):
        render(analysis, table, 0, bids="N S")


# -- the command line ----------------------------------------------------------------------------

def test_the_trial_command_reports_the_bid_as_not_allowed(capsys):
    status = main(["bid", TRIAL, "--dealer", "W", "--procedure", "clubs", "--bid", "N S",
                   "--workers", "1"])
    out = capsys.readouterr().out
    assert status == 0
    assert "N chose S: makeable (+156); not allowed: clubs does not let N choose S" in out
    assert "best choice" not in out
    status = main(["bid", TRIAL, "--dealer", "W", "--procedure", "clubs", "--bid", "N S",
                   "--workers", "1", "--json"])
    assert json.loads(capsys.readouterr().out)["verdict"]["kind"] == "not_allowed"


# -- the procedure itself (solver.model.bidding) -----------------------------------------------

from solver.errors import SolverError  # noqa: E402
from solver.model.bidding import ON_ALL_PASS, Draaikaart, allowed_when  # noqa: E402
from solver.model.cards import Seat  # noqa: E402


def every_bidding(bidding, forced=False):
    """Every way the draaikaart bidding `bidding` can end: (chooser, trump, round, forced),
    forced when the chooser could not pass (or all passed and the procedure chose for him)."""
    if bidding.chosen is not None:
        yield bidding.chosen + (bidding.round, forced)
        return
    choices = bidding.choices()
    for call in choices:
        after = Draaikaart(bidding.dealer, bidding.turned, bidding.on_all_pass,
                           bidding.second_round)
        for _, suit in bidding.calls + [(None, call)]:
            after.call(suit)
        yield from every_bidding(after, call is None or None not in choices)


@pytest.mark.parametrize("on_all_pass", ON_ALL_PASS)
@pytest.mark.parametrize("dealer", list(Seat))
def test_who_may_choose_what_is_what_the_draaikaart_calls_can_reach(dealer, on_all_pass):
    endings = list(every_bidding(Draaikaart(dealer, Suit.H, on_all_pass)))
    reached = {}
    for seat, trump, bid_round, _ in endings:
        reached.setdefault((seat, trump), set()).add(f"round {bid_round}")
    when = {(seat, trump): allowed_when("draaikaart", seat, trump, dealer, Suit.H, on_all_pass)
            for seat in Seat for trump in Suit}
    assert {key for key, how in when.items() if how} == set(reached)
    assert all(how.split(" (")[0] in reached[key] for key, how in when.items() if how)
    # The seat forced when all pass is the one the all-pass bidding ends with.
    forced = {(seat, trump) for seat, trump, _, was_forced in endings if was_forced}
    assert {key for key, how in when.items() if "forced" in how} == forced


def test_the_first_to_play_the_turned_suit_chooses_it():
    bidding = Draaikaart(Seat.S, Suit.D)
    assert bidding.to_speak() == Seat.W and bidding.choices() == [None, Suit.D]
    bidding.call(None)
    bidding.call(Suit.D)
    assert bidding.chosen == (Seat.N, Suit.D) and bidding.to_speak() is None
    assert bidding.choices() == []


@pytest.mark.parametrize("on_all_pass, calls, chosen", [
    ("turned_forced", [None] * 8, (Seat.N, Suit.D)),
    ("dealer_chooses", [None] * 7 + [Suit.S], (Seat.W, Suit.S)),
    ("left_of_dealer_chooses", [None] * 8 + [Suit.C], (Seat.N, Suit.C)),
])
def test_when_all_pass_twice_the_forced_seat_chooses(on_all_pass, calls, chosen):
    bidding = Draaikaart(Seat.W, Suit.D, on_all_pass)
    for call in calls[:-1]:
        bidding.call(call)
    if on_all_pass != "turned_forced":
        assert None not in bidding.choices()        # the forced seat may not pass
        bidding.call(calls[-1])
    else:
        bidding.call(None)
    assert bidding.chosen == chosen


def test_without_a_second_round_four_passes_force_the_turned_suit_left_of_the_dealer():
    bidding = Draaikaart(Seat.W, Suit.D, second_round=False)
    for _ in range(4):
        bidding.call(None)
    assert bidding.chosen == (Seat.N, Suit.D)
    with pytest.raises(SolverError, match="on_all_pass must be 'turned_forced'"):
        Draaikaart(Seat.W, Suit.D, "dealer_chooses", second_round=False)


def test_a_call_the_procedure_does_not_allow_names_the_open_ones():
    bidding = Draaikaart(Seat.W, Suit.D)
    with pytest.raises(SolverError, match=r"H is not a call open now \(round 1, N to speak\): "
                                          r"open are pass, D"):
        bidding.call(Suit.H)
