"""Never a silent wrong answer: option ranges, a Solver that a failed call or a second thread
cannot corrupt, interruption, and record and argument errors that say what is wrong."""
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, interrupt_once_searching, positions
from solver import (Card, Deal, DealError, Game, GameRecord, IllegalPlayError, NotationError,
                    RecordError, Rules, RulesError, Solver, SolverError, analyse_bidding,
                    analyse_play, solve, solve_table)
from solver.engine import _engine
from solver.engine.reference import minimax
from solver.model.rules import MAX_AMOUNT
from solver.engine.search import engine_position, engine_spec

DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
# N holds every heart: with hearts trump NS takes all 8 tricks (pit).
ALL_HEARTS = Deal.from_pbn("N:-.AKQJT987.-.- QJ98.-.QJ98.- AKT.-.AKT.AT 7.-.7.KQJ987")
# A deal whose full `score` search (hearts, E leads, NS) takes over half a second with a 1 MB
# table, the slowest of the 200 benchmark deals.
SLOW_DEAL = Deal.from_pbn("N:AJT.AKJ8.-.9 KQ.-.A7.AKJ8 987.-.KT9.QT -.QT97.QJ8.7")
PLAYED = ("SK S9 SA SJ  HJ HA HT H9  C9 CJ C7 CT  ST SQ S8 S7  D8 D7 DJ D9  CQ C8 DT DA  "
          "CK HQ DQ H7  CA HK DK H8").split()     # examples/game.json
RECORD = {"deal": "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ", "dealer": "E",
          "trump": "S", "playing": "EW", "rules": "amsterdam", "played": PLAYED}


# -- option ranges ---------------------------------------------------------------------------

@pytest.mark.parametrize("option", ["pit_bonus", "zero_bonus", "revoke_penalty"])
@pytest.mark.parametrize("value", [MAX_AMOUNT + 1, 40000, 2**31 - 1, 2**31, -1])
def test_amounts_outside_their_range_are_rules_errors(option, value):
    with pytest.raises(RulesError, match=f"{option}={value} must be a whole number from 0 to 1000"):
        Rules(**{option: value})


def test_four_of_a_kind_outside_its_range_is_a_rules_error():
    with pytest.raises(RulesError, match=r"four_of_a_kind\['J'\]=2000 .* from 0 to 1000"):
        Rules(four_of_a_kind={"J": 2000})


def test_pit_at_the_top_of_its_range_is_exact():
    # Before the ranges, pit_bonus=40000 gave 32000 here (the engine's infinity).
    rules = Rules(pit_bonus=MAX_AMOUNT)
    assert Solver(rules).value(Game(ALL_HEARTS, "H", "N", "NS", rules)) == 162 + MAX_AMOUNT
    result = solve(ALL_HEARTS, "H", "N", "NS", rules)
    assert result.value == 162 + MAX_AMOUNT and result.totals == {"NS": 1162, "EW": 0}


TOP_RULES = st.builds(
    Rules, trump_duty=st.sampled_from(["amsterdam", "rotterdam"]),
    roem=st.sampled_from(["table", "hand"]), stuk=st.sampled_from(["trick", "hand"]),
    four_of_a_kind=st.just({r: MAX_AMOUNT for r in "789TJQKA"}),
    pit=st.just("any"), pit_bonus=st.just(MAX_AMOUNT), double_suits=st.just(["C", "D", "H", "S"]),
    nat=st.sampled_from(["majority", "82", "none"]), multiplier=st.sampled_from([1, 8]),
    zero_bonus=st.just(MAX_AMOUNT))


@settings(max_examples=40, **SLOW)
@given(positions(rules=TOP_RULES, tricks_left=st.integers(1, 3)))
def test_engine_equals_reference_with_every_amount_at_the_top_of_its_range(game):
    solver = Solver(table_mb=1)
    for objective in ("points", "score", "make"):
        assert solver.value(game, objective) == minimax(game, objective).value, objective


# -- a Solver that cannot be corrupted ---------------------------------------------------------

def test_a_failed_configure_changes_nothing():
    solver = Solver(table_mb=1)
    game = Game(DEAL, "S", "S", "EW", Rules())
    expected = {objective: solver.value(game, objective) for objective in ("points", "make")}
    bad = dict(engine_spec(Game(DEAL, "H", "N", "NS", Rules(roem="none"))), zero_bonus=2**31)
    with pytest.raises(ValueError, match="zero_bonus"):
        solver.engine.configure(bad)   # its trump, roem, ... come before the bad number
    assert {objective: solver.value(game, objective) for objective in expected} == expected


def test_engine_refuses_numbers_past_its_limits():
    engine = _engine.Engine(1)
    spec = engine_spec(Game(DEAL, "S", "S", "EW", Rules()))
    for name, value in [("pit_bonus", 40000), ("points", [99] * 32), ("trump", 4),
                        ("multiplier", 2**31)]:
        with pytest.raises(ValueError, match=name):
            engine.configure(dict(spec, **{name: value}))


def test_engine_refuses_roem_so_far_that_would_overflow_its_table_key():
    engine = _engine.Engine(1)
    game = Game(DEAL, "S", "S", "EW", Rules())
    engine.configure(engine_spec(game))
    hands, trick, leader, pts, roem, won, tricks_left, bidder_won = engine_position(game)
    with pytest.raises(ValueError, match="out of range"):
        engine.search((hands, trick, leader, pts, (16000, 0), won, tricks_left),
                      _engine.Metric.METRIC_SCORE)


def solve_in_threads(solver_for_thread, jobs, threads=4):
    results = [None] * len(jobs)

    def work(k):
        solver = solver_for_thread()
        for i in range(k, len(jobs), threads):
            game, objective = jobs[i]
            results[i] = solver.value(game, objective)

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return results


def test_one_solver_shared_by_threads_gives_the_values_of_one_thread():
    jobs = [(Game(Deal.random(seed), "CDHS"[seed % 4], "NESW"[seed % 3], "NS",
                  [Rules(), Rules.rotterdam(), Rules(roem="hand", nat="82")][seed % 3]),
             ["points", "make", "score"][seed % 3]) for seed in range(24)]
    alone = Solver(table_mb=1)
    expected = [alone.value(game, objective) for game, objective in jobs]
    shared = Solver(table_mb=1)
    assert solve_in_threads(lambda: shared, jobs) == expected


def test_an_engine_searching_in_another_thread_refuses_to_be_reconfigured():
    solver = Solver(table_mb=1)
    game = Game(SLOW_DEAL, "H", "E", "NS")
    spec = engine_spec(game)
    solver.engine.configure(spec)
    search = threading.Thread(target=solver.engine.search,
                              args=(engine_position(game), _engine.Metric.METRIC_SCORE))
    search.start()
    try:
        deadline = time.monotonic() + 5
        while not solver.engine.searching and time.monotonic() < deadline:
            time.sleep(0.001)
        assert solver.engine.searching
        with pytest.raises(RuntimeError, match="one Solver per thread"):
            solver.engine.configure(dict(spec, pit_bonus=90))
    finally:
        search.join()


@pytest.mark.parametrize("objective", ["Points", "bogus", "", None, 3])
def test_every_entry_point_rejects_an_unknown_objective(objective):
    solver = Solver(table_mb=1)
    game = Game(DEAL, "S", "S", "EW")
    calls = [lambda: solver.value(game, objective), lambda: solver.move_values(game, objective),
             lambda: solver.line(game, objective, 0),
             lambda: solver.solve(DEAL, "S", "S", "EW", objective=objective),
             lambda: solver.solve_moves(DEAL, "S", "S", "EW", objective=objective)]
    for call in calls:
        with pytest.raises(SolverError, match="unknown objective"):
            call()


# -- Ctrl-C ---------------------------------------------------------------------------------------

def test_ctrl_c_stops_a_search_and_leaves_the_solver_sound():
    game = Game(SLOW_DEAL, "H", "E", "NS")
    score = _engine.Metric.METRIC_SCORE
    fresh = Solver(table_mb=1)
    expected = fresh._search(game, score)
    full = fresh.engine.nodes
    solver = Solver(table_mb=1)
    # Far from done: the whole search is about 1.8M nodes.
    interrupt = interrupt_once_searching(solver.engine)
    with pytest.raises(KeyboardInterrupt):
        solver._search(game, score)
    interrupt.join()
    # Stopped inside the search, not before or after it: far fewer nodes than the whole.
    assert 0 < solver.engine.nodes < full / 2
    assert solver._search(game, score) == expected
    assert solver.value(game, "score") == fresh.value(game, "score")
    assert not solver.engine.searching


# -- the table epoch --------------------------------------------------------------------------

def test_a_reused_epoch_number_never_sees_old_entries():
    engine = _engine.Engine(1)
    game = Game(ALL_HEARTS, "S", "E", "EW", Rules())
    other = engine_spec(Game(ALL_HEARTS, "S", "E", "EW", Rules(pit_bonus=MAX_AMOUNT, roem="none")))
    position = engine_position(game)
    points = _engine.Metric.METRIC_POINTS
    engine.configure(other)
    epoch = engine.epoch
    engine.search(position, points)          # fills the table under other rules
    fillers = [dict(other, zero_bonus=z) for z in (1, 2)]
    for i in range(65534):                   # every other epoch number once
        engine.configure(fillers[i % 2])
    engine.configure(engine_spec(game))
    assert engine.epoch == epoch
    assert engine.search(position, points) == Solver(table_mb=1).value(game, "points")


def test_no_configure_touches_the_whole_table():
    # With 8-bit epochs the 255th change cleared all of a big table at once (2 s for 1 GB).
    engine = _engine.Engine(1024)
    specs = [engine_spec(Game(DEAL, "S", "S", "EW", Rules(pit_bonus=b))) for b in range(300)]
    slowest = 0.0
    for spec in specs:
        start = time.perf_counter()
        engine.configure(spec)
        slowest = max(slowest, time.perf_counter() - start)
    assert slowest < 0.25


# -- records ------------------------------------------------------------------------------------

def test_a_card_after_the_end_of_the_round_is_a_record_error():
    # Before: scored as a revoke by W at trick 9, "NS 282, EW 0".
    with pytest.raises(RecordError, match=r"card 33 \(SA\) comes after the end of the round"):
        GameRecord.from_dict(dict(RECORD, played=PLAYED + ["SA"]))


def test_a_card_played_twice_is_a_record_error_naming_card_trick_and_seat():
    played = PLAYED[:5] + ["SK"]
    with pytest.raises(RecordError, match=r"card 6, trick 2, seat S: S does not hold SK "
                                          r"\(it was already played\)"):
        GameRecord.from_dict(dict(RECORD, played=played))


def test_a_card_dealt_to_another_seat_is_a_record_error():
    with pytest.raises(RecordError, match=r"trick 1, seat S: S does not hold CA \(it is in the hand of W\)"):
        GameRecord.from_dict(dict(RECORD, played=["CA"]))


def test_a_held_card_that_breaks_a_duty_is_still_a_revoke():
    analysis = analyse_play(GameRecord.from_dict(dict(RECORD, played=["SK", "HT"])))
    assert analysis.illegal.card == Card.parse("HT") and analysis.illegal.duty == "overtrump"


def test_a_leader_that_contradicts_the_dealer_is_a_record_error():
    with pytest.raises(RecordError, match="leader W contradicts dealer E"):
        GameRecord.from_dict(dict(RECORD, leader="W", played=[]))
    record = GameRecord.from_dict(dict(RECORD, leader="W", chooser_leads=True, played=[]))
    assert record.leader.name == "W"


@pytest.mark.parametrize("played", [5, None, {"a": 1}, [["HA"]], [[[[]]]], [1, 2], True])
def test_wrong_types_for_played_are_record_errors(played):
    with pytest.raises(RecordError, match="played"):
        GameRecord.from_dict(dict(RECORD, played=played))


@pytest.mark.parametrize("field, value", [("deal", 5), ("trump", None), ("trump", []),
                                          ("dealer", 4), ("leader", 1.5), ("rules", [1]),
                                          ("playing", {}), ("chooser_leads", "yes")])
def test_wrong_types_in_any_field_are_record_errors(field, value):
    with pytest.raises(RecordError, match=field):
        GameRecord.from_dict(dict(RECORD, **{field: value}))


def test_deeply_nested_json_is_a_record_error():
    with pytest.raises(RecordError, match="nested too deeply"):
        GameRecord.from_json("[" * 100_000 + "]" * 100_000)


# -- bids ---------------------------------------------------------------------------------------

def test_a_bid_by_a_seat_that_may_not_choose_is_a_clear_error():
    # Before: "max() arg is an empty sequence".
    with pytest.raises(SolverError, match="under utrechts seat E may not choose a trump.*N chooses"):
        analyse_bidding(DEAL, "W", procedure="utrechts", bid=("E", "H"))


@pytest.mark.parametrize("bid", [("N",), ("N", "H", "S"), "N", 5, ("N", 5)])
def test_a_malformed_bid_is_a_clear_error(bid):
    with pytest.raises(SolverError):
        analyse_bidding(DEAL, "W", procedure="free", bid=bid)


# -- wrong types across the API ---------------------------------------------------------------------

@pytest.mark.parametrize("call, error", [
    (lambda: Game("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ", "S", "S", "EW"), DealError),
    (lambda: Game(DEAL, "S", "S", "EW", rules="amsterdamm"), RulesError),
    (lambda: Game(DEAL, "S", "S", "EW", rules=5), RulesError),
    (lambda: Game(DEAL, 4, "S", "EW"), NotationError),
    (lambda: Game(DEAL, True, "S", "EW"), NotationError),
    (lambda: Game(DEAL, "S", None, "EW"), NotationError),
    (lambda: Game(DEAL, "S", "S", "EW").undo(), SolverError),
    (lambda: Game(DEAL, "S", "S", "EW").replay(5), IllegalPlayError),
    (lambda: Deal(5), DealError),
    (lambda: Deal([1, 2, 3, 4]), DealError),
    (lambda: Deal("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"), DealError),
    (lambda: Deal.random("7"), DealError),
    (lambda: Deal.from_pbn(None), DealError),
    (lambda: Card.from_index(-1), NotationError),
    (lambda: Card.from_index(32), NotationError),
    (lambda: Card.from_index("1"), NotationError),
    (lambda: Card.parse(7), NotationError),
    (lambda: Rules("amsterdam"), RulesError),
    (lambda: Rules(pit_bonus="100"), RulesError),
    (lambda: Rules(multiplier=True), RulesError),
    (lambda: Rules(nat=["majority"]), RulesError),
    (lambda: Rules.from_dict(["roem"]), RulesError),
    (lambda: Solver(table_mb="16"), SolverError),
    (lambda: Solver(table_mb=0), SolverError),
    (lambda: Solver(rules={"roem": "never"}), RulesError),
    (lambda: Solver().value("a game"), SolverError),
    (lambda: solve(DEAL, "S", "S", "EW", played="SK XX"), IllegalPlayError),
    (lambda: solve(DEAL, "S", "S", "EW", played=7), IllegalPlayError),
    (lambda: solve_table("deal"), DealError),
    (lambda: analyse_play("game.json"), RecordError),
    (lambda: analyse_play(DEAL, "S", "S", "EW", played=[None]), RecordError),
    (lambda: analyse_bidding(DEAL, "W", procedure=["free"]), SolverError),
    (lambda: analyse_bidding(DEAL, "W", procedure="free", chooser_leads="yes"), SolverError),
])
def test_wrong_types_raise_the_documented_errors(call, error):
    with pytest.raises(error):
        call()


def test_every_error_class_shares_solver_error():
    for error in (NotationError, DealError, RulesError, IllegalPlayError, RecordError):
        assert issubclass(error, SolverError) and issubclass(error, ValueError)


@pytest.mark.parametrize("call", [
    lambda: Deal.from_pbn("N:" + "A" * 10_000),
    lambda: Deal.from_pbn("N:" + " ".join(["AKQJ.T987.AKQJ.T987"] * 1000)),
    lambda: Card.parse("A" * 10_000),
    lambda: Rules(roem="A" * 10_000),
    lambda: Rules.from_dict({"A" * 10_000: 1}),
    lambda: GameRecord.from_dict(dict(RECORD, trump="A" * 10_000)),
    lambda: GameRecord.from_dict(["A" * 10_000]),
])
def test_error_messages_quote_at_most_about_80_characters_of_the_input(call):
    with pytest.raises(SolverError) as info:
        call()
    assert "A" * 81 not in str(info.value) and len(str(info.value)) < 300
