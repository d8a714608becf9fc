"""Ledig (docs/rules.md, "Ledig"): the rule options, the round's inputs and their checks, the
round in plain Python, and the engine against the reference and an independent solver.

The default run keeps each property short; `python -m pytest -m slow` runs them at length,
and on whole deals.
"""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, example_counts, interrupt_once_searching, ledig_positions
from ledig_solver import ledig_points
from test_engine_rules import play_out_and_compare
from solver import Card, Deal, Game, Rules, Seat, Team
from solver.engine import _engine
from solver.engine.reference import minimax, minimax_moves
from solver.engine.search import Solver, engine_position, engine_spec, solve, solve_moves
from solver.errors import NotationError, RulesError

DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
LEDIG = Rules(contract="ledig")
CHOSEN = Rules(contract="ledig", ledig_trump="chosen")


def test_the_new_options_default_and_round_trip():
    rules = Rules()
    assert (rules.contract, rules.ledig_trump, rules.ledig_bonus, rules.players,
            rules.dummy_open) == ("trump", "none", 50, 4, "after_lead")
    changed = Rules(contract="ledig", ledig_trump="chosen", ledig_bonus=0, players=3,
                    dummy_open="never")
    assert Rules.from_dict(changed.to_dict()) == changed
    # Rules written before these options existed still load, with the defaults.
    old = {k: v for k, v in Rules().to_dict().items()
           if k not in ("contract", "ledig_trump", "ledig_bonus", "players", "dummy_open")}
    assert Rules.from_dict(old) == Rules()


@pytest.mark.parametrize("options, named", [
    ({"contract": "nil"}, "contract"), ({"ledig_trump": "all"}, "ledig_trump"),
    ({"ledig_bonus": 1001}, "ledig_bonus"), ({"ledig_bonus": -1}, "ledig_bonus"),
    ({"ledig_bonus": 50.0}, "ledig_bonus"), ({"players": 5}, "players"),
    ({"players": "3"}, "players"), ({"players": True}, "players"),
    ({"dummy_open": "later"}, "dummy_open")])
def test_bad_values_name_the_option(options, named):
    with pytest.raises(RulesError, match=named):
        Rules(**options)


def test_a_ledig_round_takes_the_bidder_and_its_team_plays():
    game = Game(DEAL, leader="W", rules=LEDIG, bidder="S")
    assert (game.trump, game.bidder, game.playing, game.dummy) == (None, Seat.S, Team.NS, None)
    assert game.copy().bidder == Seat.S
    game = Game(DEAL, "H", "W", "EW", CHOSEN, bidder="E")
    assert (game.trump.letter, game.playing) == ("H", Team.EW)


def test_a_three_player_round_takes_the_dummy_and_its_team_plays():
    game = Game(DEAL, "H", "W", rules=Rules(players=3), dummy="N")
    assert (game.dummy, game.playing) == (Seat.N, Team.NS)
    assert game.copy().dummy == Seat.N


@pytest.mark.parametrize("args, kwargs, named", [
    ((DEAL,), dict(leader="W", rules=LEDIG), "bidder"),
    ((DEAL, "H", "W"), dict(rules=LEDIG, bidder="S"), "ledig_trump='none'"),
    ((DEAL,), dict(leader="W", rules=CHOSEN, bidder="S"), "trump suit"),
    ((DEAL,), dict(leader="W", playing="EW", rules=LEDIG, bidder="S"), "bidder=S is in team NS"),
    ((DEAL, "H", "W", "NS"), dict(bidder="S"), "for ledig rounds"),
    ((DEAL, "H", "W"), dict(rules=Rules(players=3)), "dummy"),
    ((DEAL, "H", "W", "EW"), dict(rules=Rules(players=3), dummy="N"), "dummy=N is in team NS"),
    ((DEAL, "H", "W", "NS"), dict(dummy="N"), "three-player"),
    ((DEAL, "H", "W", "NS"), dict(rules=Rules(players=2), dummy="N"), "three-player"),
    ((DEAL,), dict(leader="W", rules=Rules(contract="ledig", players=3), bidder="E", dummy="N"),
     "dummy=N is in team NS"),
])
def test_a_round_names_what_the_rules_miss_or_refuse(args, kwargs, named):
    with pytest.raises(RulesError, match=named):
        Game(*args, **kwargs)
    with pytest.raises(RulesError, match=named):
        Solver().game(*args, **kwargs)


@pytest.mark.parametrize("args", [(DEAL, "H", None, "NS"), (DEAL, None, "W", "NS"), (DEAL, "H", "W")])
def test_a_trump_round_without_trump_leader_or_team_is_refused_as_before(args):
    with pytest.raises(NotationError):
        Game(*args)


def test_every_entry_point_takes_bidder_and_dummy_by_name():
    three = Rules(players=3)
    assert solve(DEAL, "S", "S", rules=three, dummy="E").value == \
        solve(DEAL, "S", "S", "EW").value
    assert solve_moves(DEAL, "S", "S", rules=three, dummy="W") == \
        solve_moves(DEAL, "S", "S", "EW")
    assert Solver(three).solve(DEAL, "S", "S", dummy="E").value == -2


# -- the round in plain Python ---------------------------------------------------------------

def legal(game):
    return " ".join(str(c) for c in game.legal_cards())


def test_without_trump_only_following_suit_binds_and_the_plain_order_wins():
    game = Game(DEAL, leader="W", rules=LEDIG, bidder="S")
    game.play("HT")
    assert legal(game) == "H9 HQ HK"         # no duty to beat the ten
    game.replay("H9 HJ")
    assert legal(game) == "H7 H8 HA"
    game.play("HA")
    assert game.tricks[-1].winner == Seat.S  # the ace is the highest, hearts or not
    assert game.bidder_tricks() == 1 and game.tricks[-1].points == 0
    game.replay("SK S8 SA ST")               # N wins the spade: not the bidder
    assert game.bidder_tricks() == 1
    game.replay("C7 CT C9 CA")
    game.play("CK")                          # W leads clubs; E is void
    game.play("C8")
    assert legal(game) == "D8 DT DQ DK SJ"   # void: any card of any suit


def test_with_a_chosen_trump_every_duty_of_the_trump_game_binds():
    game = Game(DEAL, "H", "W", rules=Rules(contract="ledig", ledig_trump="chosen",
                                             trump_duty="rotterdam"), bidder="S")
    game.play("HT")
    assert legal(game) == "H9"               # the nine of trumps beats the ten
    game = Game(DEAL, "H", "W", rules=Rules(contract="ledig", ledig_trump="chosen",
                                             trump_duty="rotterdam"), bidder="S")
    game.replay("CA C7 CT C9 CK C8")
    assert legal(game) == "HJ"               # void in clubs: trump


def test_only_the_bidders_tricks_count():
    for lt, trump in (("none", None), ("chosen", "S")):
        rules = Rules(contract="ledig", ledig_trump=lt, ledig_bonus=70, roem="hand")
        game = Game(DEAL, trump, "W", rules=rules, bidder="N")
        while not game.is_over:
            game.play(game.legal_cards()[-1])
        taken = game.bidder_tricks()
        assert taken == sum(t.winner == Seat.N for t in game.tricks)
        assert game.tallies() == {Team.NS: game.tally("NS"), Team.EW: game.tally("EW")}
        assert all(t.total == 0 for t in game.tallies().values())
        assert game.objective_value("points") == -taken
        assert game.objective_value("make") == (taken == 0)
        assert game.objective_value("score") == (70 if taken == 0 else -70)
        scores = game.final_scores()
        assert (scores["NS"], scores["EW"]) == ((70, 0) if taken == 0 else (0, 70))


# -- the engine ------------------------------------------------------------------------------

OBJECTIVES = ("points", "score", "make")


@pytest.mark.parametrize("examples", example_counts(40))
def test_the_engine_values_every_legal_card_like_the_reference(examples):
    solver = Solver(table_mb=1)     # one table for every position: entries must not mix
    @settings(max_examples=examples, **SLOW)
    @given(ledig_positions())
    def check(game):
        for objective in OBJECTIVES:
            expected = minimax(game, objective).value
            assert solver.value(game, objective) == expected, objective
            assert solver.move_values(game, objective) == minimax_moves(game, objective), objective
            result = solver.solve(game.deal, game.trump, game.leader, rules=game.rules,
                                  played=game.played, objective=objective, bidder=game.bidder)
            assert result.value == expected
            end = game.copy()
            end.replay(result.line)             # a legal line to the end, keeping the value
            assert end.is_over and end.objective_value(objective) == expected
            line = solver.line(game, objective, expected)
            end = game.copy()
            end.replay(line)
            assert end.objective_value(objective) == expected
    check()


@pytest.mark.parametrize("examples", example_counts(30))
def test_the_independent_solver_equals_the_reference(examples):
    @settings(max_examples=examples, **SLOW)
    @given(ledig_positions())
    def check(game):
        assert ledig_points(game) == minimax(game, "points").value
    check()


@pytest.mark.parametrize("examples, tricks_left", [
    pytest.param(8, st.integers(4, 5), id="quick"),
    pytest.param(60, st.integers(4, 8), id="long", marks=pytest.mark.slow)])
def test_the_engine_equals_the_independent_solver_back_to_whole_deals(examples, tricks_left):
    solver = Solver(table_mb=1)
    @settings(max_examples=examples, **SLOW)
    @given(ledig_positions(tricks_left))
    def check(game):
        points = ledig_points(game)
        assert solver.value(game, "points") == points
        assert solver.value(game, "make") == (points == 0)
        bonus = game.rules.ledig_bonus
        assert solver.value(game, "score") == (bonus if points == 0 else -bonus)
        values = solver.move_values(game, "points")
        best = max if game.to_move.team == game.playing else min
        assert best(values.values()) == points
    check()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_whole_deals_equal_the_independent_solver(seed):
    for ledig_trump, trump in (("none", None), ("chosen", "CDHS"[seed % 4])):
        rules = Rules(contract="ledig", ledig_trump=ledig_trump)
        game = Game(Deal.random(seed), trump, Seat(seed % 4), rules=rules, bidder=Seat(seed // 4 % 4))
        assert Solver().value(game, "points") == ledig_points(game)


@pytest.mark.parametrize("examples", example_counts(30))
def test_the_engine_plays_ledig_like_game(examples):
    @settings(max_examples=examples, **SLOW)
    @given(ledig_positions(st.just(8)), st.randoms(use_true_random=False))
    def check(game, rnd):
        engine = play_out_and_compare(game, rnd)
        assert engine.final_value(engine_position(game), _engine.Metric.METRIC_LEDIG) == \
            game.objective_value("points")
    check()


@pytest.mark.parametrize("examples", example_counts(40))
def test_the_ledig_bounds_hold_the_value(examples):
    @settings(max_examples=examples, **SLOW)
    @given(ledig_positions(st.integers(2, 3)))
    def check(game):
        while game.current_trick:
            game.play(game.legal_cards()[0])
        engine = _engine.Engine(1)
        engine.configure(engine_spec(game))
        low, high = engine.bounds(engine_position(game), _engine.Metric.METRIC_LEDIG)
        assert low <= minimax(game, "points").value <= high
    check()


def card_indices(text):
    return [Card.parse(c).index for c in text.split()]


@pytest.mark.parametrize("hands, leader, trump, expected", [
    # S, the bidder, leads holding only cards nothing left beats: he takes both tricks.
    (["H7 S7", "H8 S8", "HA SA", "H9 S9"], 2, None, (-2, -2)),
    # He holds the highest trump left: it takes the trick it falls on, whoever leads.
    (["H7 S7", "H8 S8", "HJ C7", "H9 S9"], 0, "H", (-2, -1)),
    # Nothing forces him: anything from none to both.
    (["H7 S7", "H8 S8", "HA C7", "H9 S9"], 0, None, (-2, 0)),
    # East's trumps above his highest take the tricks they fall on: none is his.
    (["H7 S7", "HJ H9", "HA C7", "H8 S8"], 0, "H", (0, 0)),
    (["H7 S7", "HJ S9", "HA C7", "H8 S8"], 0, "H", (-1, 0)),
    # North's trumps below his do not: East leads S9, and he must trump it.
    (["H7 H8", "HJ S9", "HA C7", "S7 S8"], 1, "H", (-1, 0)),
])
def test_the_ledig_bounds_see_the_tricks_the_bidder_cannot_avoid(hands, leader, trump, expected):
    rules = Rules(contract="ledig", ledig_trump="chosen" if trump else "none")
    game = Game(DEAL, trump, "N", rules=rules, bidder="S")
    engine = _engine.Engine(1)
    engine.configure(engine_spec(game))
    position = ([card_indices(h) for h in hands], [], leader, (0, 0), (0, 0), (3, 3), 2, 0)
    assert engine.bounds(position, _engine.Metric.METRIC_LEDIG) == expected
    low, high = expected
    assert low <= engine.search(position, _engine.Metric.METRIC_LEDIG) <= high


def test_with_a_bonus_of_0_every_card_keeps_the_score_and_the_first_is_the_best_card():
    # Made or not, the score is 0: the best card and the line take the first legal card.
    rules, solver, rng = Rules(contract="ledig", ledig_bonus=0), Solver(), random.Random(1)
    for seed in range(40):
        game = Game(Deal.random(seed), leader=Seat(seed % 4), rules=rules,
                    bidder=Seat(seed // 4 % 4))
        for _ in range(rng.randrange(0, 28)):
            game.play(rng.choice(game.legal_cards()))
        first = min(game.legal_cards())
        assert solver.best_card(game, "score") == first, seed
        assert solver.line(game, "score", 0)[0] == first, seed


def test_a_solver_moves_between_ledig_and_trump_rounds_without_mixing_them():
    shared = Solver(table_mb=1)
    for seed in range(6):
        deal = Deal.random(seed)
        for kwargs in (dict(trump="H", leader="N", playing="NS"),
                       dict(leader="N", rules=LEDIG, bidder="E"),
                       dict(trump="H", leader="N", rules=CHOSEN, bidder="N"),
                       dict(trump="H", leader="N", playing="EW")):
            game = shared.game(deal, played=(), **kwargs)
            for _ in range(16):
                game.play(game.legal_cards()[-1])
            for objective in OBJECTIVES:
                assert shared.value(game, objective) == Solver(table_mb=1).value(game, objective)


def test_the_engine_refuses_the_ledig_metric_without_a_bidder_and_the_trump_ones_with_one():
    engine = _engine.Engine(1)
    trump = Game(DEAL, "H", "N", "NS")
    engine.configure(engine_spec(trump))
    with pytest.raises(ValueError, match="ledig metric"):
        engine.search(engine_position(trump), _engine.Metric.METRIC_LEDIG)
    ledig = Game(DEAL, leader="N", rules=LEDIG, bidder="E")
    engine.configure(engine_spec(ledig))
    with pytest.raises(ValueError, match="ledig metric"):
        engine.search(engine_position(ledig), _engine.Metric.METRIC_POINTS)


def test_a_full_ledig_solve_gives_its_value_line_and_moves():
    result = solve(DEAL, leader="W", rules=LEDIG, bidder="S")
    game = Game(DEAL, leader="W", rules=LEDIG, bidder="S")
    assert result.value == ledig_points(game) and result.played == []
    game.replay(result.line)
    assert game.objective_value("points") == result.value
    assert {t: result.totals[t] for t in Team} == {Team.NS: 0, Team.EW: 0}
    moves = solve_moves(DEAL, leader="W", rules=LEDIG, bidder="S", objective="make")
    assert any(moves.values()) == (result.value == 0)
    score = solve(DEAL, leader="W", rules=Rules(contract="ledig", ledig_bonus=80), bidder="S",
                  objective="score")
    assert score.value == (80 if result.value == 0 else -80)
    solver = Solver(LEDIG)
    assert solver.make_value(game.copy(), result.value) == (result.value == 0)


def test_ctrl_c_stops_a_ledig_search_and_leaves_the_solver_sound():
    game = Game(Deal.random(33), leader="N", rules=LEDIG, bidder="S")    # a heavy one
    fresh = Solver(table_mb=1)
    expected = fresh.move_values(game, "points")
    full = fresh.engine.nodes
    solver = Solver(table_mb=1)
    interrupt = interrupt_once_searching(solver.engine)
    with pytest.raises(KeyboardInterrupt):
        solver.move_values(game, "points")
    interrupt.join()
    assert solver.engine.nodes < full / 2     # stopped inside the search
    assert solver.move_values(game, "points") == expected
    assert not solver.engine.searching
