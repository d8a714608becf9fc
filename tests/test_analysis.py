"""Tables, play analysis and bid analysis agree with `solve` on the same positions."""
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, positions

from solver import (BidAnalysis, DDTable, Deal, GameRecord, PlayAnalysis, RecordError, Rules,
                    Seat, Solver, SolverError, Suit, analyse_bidding, analyse_play, solve,
                    solve_table)
from solver.engine.search import first_optimal_card
from solver.model.scoring import OBJECTIVES, value_for_team

DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "game.json"


@pytest.fixture(scope="module")
def table():
    return solve_table(DEAL, rules=Rules.amsterdam())


def test_table_agrees_with_solve(table):
    for trump, leader in [("H", "E"), ("S", "S"), ("C", "N")]:
        assert table.value(trump=trump, leader=leader) == solve(DEAL, trump, leader, "NS").value
        assert table.makeable(trump=trump, leader=leader, team="EW") == \
            solve(DEAL, trump, leader, "EW", objective="make").value


def test_table_value_for_ew_is_the_negative(table):
    assert table.value("H", "E", team="EW") == -table.value("H", "E")


def test_table_to_numpy_is_trump_by_leader(table):
    array = table.to_numpy()
    assert array.dtype == np.int16 and array.shape == (4, 4)
    assert array[Suit.H, Seat.E] == table.value("H", "E")


def test_table_prints_a_grid_with_suit_symbols(table):
    text = str(table)
    assert "♥" in text and "♠" in text and text.count("\n") == 5


def test_table_json_round_trips(table):
    assert DDTable.from_dict(json.loads(json.dumps(table.to_dict()))) == table


def test_table_dict_keys_are_its_attribute_names(table):
    data = table.to_dict()
    assert data["values"] is table.values and data["makes"] is table.makes
    assert "makeable" not in data


def test_table_written_with_the_old_makeable_key_still_loads(table):
    data = table.to_dict()
    data["makeable"] = data.pop("makes")
    assert DDTable.from_dict(json.loads(json.dumps(data))) == table


def test_pit_playing_table_solves_each_team():
    table = solve_table(DEAL, rules=Rules(pit="playing"))
    assert table.value("S", "S", team="EW") == solve(DEAL, "S", "S", "EW", rules=Rules(pit="playing")).value


# -- play analysis -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def analysis():
    return analyse_play(GameRecord.load(EXAMPLE))


def test_play_analysis_starts_at_the_solved_value(analysis):
    record = analysis.record
    assert analysis.start_value == solve(record.deal, record.trump, record.leader,
                                         record.playing, record.rules).value


def test_each_step_agrees_with_solve(analysis):
    record = analysis.record
    for step in analysis.steps[::5]:
        played = list(record.played[:step.number])
        assert step.value_after == solve(record.deal, record.trump, record.leader,
                                          record.playing, record.rules, played).value


def test_losses_are_never_negative_and_optimal_cards_cost_nothing(analysis):
    for step in analysis.steps:
        assert step.loss >= 0
        assert (step.loss == 0) == (step.card in step.best_cards)


def test_losses_explain_the_change_of_value(analysis):
    # The value only moves when someone errs: the start value plus the playing team's
    # gains from defender errors minus its own losses is the final value.
    playing = analysis.record.playing
    drift = sum(-s.loss if s.seat.team == playing else s.loss for s in analysis.steps)
    assert analysis.start_value + drift == analysis.steps[-1].value_after


def test_actual_result_of_a_complete_round(analysis):
    assert analysis.actual.complete and analysis.illegal is None
    assert sum(analysis.actual.totals.values()) >= 162


def test_summary_names_the_losses(analysis):
    text = analysis.summary()
    assert "NS lost 174 points" in text and "trick 5 S D7" in text


def test_play_analysis_json_round_trips(analysis):
    assert PlayAnalysis.from_dict(json.loads(json.dumps(analysis.to_dict()))) == analysis


def test_illegal_card_is_reported_and_scored_as_a_revoke():
    pa = analyse_play(DEAL, trump="S", leader="S", playing="EW", played="HA HT H9 SJ HJ")
    assert pa.illegal.card.to_str() == "SJ" and pa.illegal.seat == Seat.E
    assert pa.illegal.duty == "follow suit" and pa.illegal.trick == 1
    assert len(pa.steps) == 3
    assert pa.actual.scores == {"EW": 0, "NS": 262}


def test_unfinished_play_has_no_final_score():
    pa = analyse_play(DEAL, trump="S", leader="S", playing="EW", played=["HA"])
    assert pa.actual.scores is None and len(pa.steps) == 1


@pytest.mark.parametrize("data, message", [
    ({"trump": "S", "leader": "S", "playing": "EW"}, "no 'deal' field"),
    ({"deal": DEAL.to_pbn(), "trump": "X", "leader": "S", "playing": "EW"}, "field 'trump'"),
    ({"deal": DEAL.to_pbn(), "trump": "S", "playing": "EW"}, "needs a 'leader'"),
    ({"deal": DEAL.to_pbn(), "trump": "S", "leader": "S", "playing": "EW", "colour": 1},
     "unknown field 'colour'"),
    ({"deal": DEAL.to_pbn(), "trump": "S", "leader": "S", "playing": "EW", "played": "HA Q9"},
     "field 'played'"),
    ([1, 2], "JSON object"),
])
def test_bad_game_records_name_the_field(data, message):
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


def test_record_leader_defaults_to_left_of_dealer():
    record = GameRecord.from_dict({"deal": DEAL.to_pbn(), "dealer": "W", "trump": "S",
                                   "playing": "EW"})
    assert record.leader == Seat.N


def test_record_json_round_trips():
    record = GameRecord.load(EXAMPLE)
    assert GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_malformed_json_is_a_record_error():
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.from_json("{deal: ")


# -- bid analysis ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bids():
    return analyse_bidding(DEAL, dealer="W", rules=Rules(), procedure="draaikaart", turned="S",
                           bid=("N", "S"))


def test_bid_values_agree_with_solve(bids):
    for seat, trump in [("N", "S"), ("E", "H"), ("W", "C")]:
        option = bids.option(seat, trump)
        assert option.leader == Seat.N       # left of the dealer leads
        assert option.value == solve(DEAL, trump, "N", Seat.parse(seat).team).value
        assert option.makeable == solve(DEAL, trump, "N", Seat.parse(seat).team,
                                        objective="make").value


def test_bid_verdict_compares_the_trumps_of_the_round_the_seat_chose(bids):
    # H is N's best trump, but only in round 2: taking the turned S in round 1 was N's only choice.
    assert bids.best_trump("N").trump == Suit.H
    assert bids.verdict().startswith("N chose S: makeable") and "H was better" not in bids.verdict()
    assert "S was the only trump open to N in round 1" in bids.verdict()


def test_chooser_leads_changes_the_leader():
    bids = analyse_bidding(DEAL, dealer="W", procedure="free", chooser_leads=True)
    assert bids.option("E", "H").leader == Seat.E
    assert bids.option("E", "H").value == solve(DEAL, "H", "E", "EW").value


def test_utrechts_only_left_of_dealer_chooses():
    bids = analyse_bidding(DEAL, dealer="W", procedure="utrechts")
    assert {o.seat for o in bids.options if o.allowed} == {Seat.N}


def test_clubs_round_offers_only_clubs():
    bids = analyse_bidding(DEAL, dealer="W", procedure="clubs")
    assert {o.trump for o in bids.options if o.allowed} == {Suit.C}


def test_draaikaart_needs_the_turned_suit():
    with pytest.raises(ValueError, match="needs the turned suit"):
        analyse_bidding(DEAL, dealer="W", procedure="draaikaart")


def test_unknown_procedure_is_named():
    with pytest.raises(ValueError, match="procedure 'auction' is not allowed: choose one of draaikaart"):
        analyse_bidding(DEAL, dealer="W", procedure="auction")


def test_bid_analysis_json_round_trips(bids):
    assert BidAnalysis.from_dict(json.loads(json.dumps(bids.to_dict()))) == bids


# -- on every core -------------------------------------------------------------------------------

def test_the_worker_count_does_not_change_any_analysis():
    deal = Deal.random(11)
    assert solve_table(deal, workers=1) == solve_table(deal, workers=2)
    record = GameRecord.load(EXAMPLE)
    assert analyse_play(record, workers=1).to_dict() == analyse_play(record, workers=2).to_dict()
    one = analyse_bidding(DEAL, "W", procedure="free", workers=1)
    assert one == analyse_bidding(DEAL, "W", procedure="free", workers=2)
    with pytest.raises(SolverError, match="workers must be a whole number"):
        solve_table(deal, workers=0)


@pytest.mark.parametrize("rules", [Rules(), Rules(nat="none", roem="hand"), Rules(nat="82"),
                                   Rules(nat="82", multiplier=2), Rules(pit="playing")])
def test_table_makes_equal_the_make_search_under_every_nat(rules):
    from solver import Game, Solver, Team
    table = solve_table(DEAL, rules)
    solver = Solver(rules)
    for suit in Suit:
        for leader in Seat:
            for team in Team:
                assert table.makeable(suit, leader, team) == \
                    solver.value(Game(DEAL, suit, leader, team, rules), "make")


# -- points and make together; the first optimal card ------------------------------------------

@settings(max_examples=40, **SLOW)
@given(positions(tricks_left=st.integers(1, 2)))
def test_value_and_make_agree_with_separate_searches(game):
    solver = Solver(table_mb=1)
    for objective in OBJECTIVES:
        assert solver.value_and_make(game, objective) == (solver.value(game, objective),
                                                          solver.value(game, "make"))
        assert solver.move_values_and_makes(game, objective) == (
            solver.move_values(game, objective), solver.move_values(game, "make"))
    assert solver.make_value(game, solver.value(game, "points")) == solver.value(game, "make")


@settings(max_examples=40, **SLOW)
@given(positions(tricks_left=st.integers(1, 3)))
def test_best_card_is_the_first_optimal_card_of_the_move_values(game):
    solver = Solver(table_mb=1)
    for objective in OBJECTIVES:
        mover = {card: value_for_team(value, game.to_move.team, game.playing)
                 for card, value in solver.move_values(game, objective).items()}
        assert solver.best_card(game, objective) == first_optimal_card(mover)
