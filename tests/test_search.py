"""The engine is exact: equal to the no-pruning reference under every rule variant."""
import json
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, example_counts, positions, rules_strategy
from solver import (Card, Deal, Game, IllegalPlayError, Rank, Rules, Seat, Solver, Suit, Team,
                    solve, solve_moves)
from solver.model.cards import ALL_CARDS
from solver.engine.reference import minimax, minimax_moves
from solver.model.scoring import objective_value

CROSSCHECK = pathlib.Path(__file__).resolve().parents[2] / "shared" / "crosscheck" / "positions.jsonl"


def assert_engine_equals_reference(game):
    solver = Solver(table_mb=1)
    for objective in ("points", "score", "make"):
        assert solver.value(game, objective) == minimax(game, objective).value, objective


@settings(max_examples=150, **SLOW)
@given(positions(tricks_left=st.integers(1, 3)))
def test_engine_equals_reference_for_every_objective(game):
    assert_engine_equals_reference(game)


@settings(max_examples=60, **SLOW)
@given(positions(tricks_left=st.integers(1, 3)), st.sampled_from(["points", "score", "make"]))
def test_move_values_equal_reference(game, objective):
    assert Solver(table_mb=1).move_values(game, objective) == minimax_moves(game, objective)


# Rules with no roem on the table: there the search bounds a card by a near-twin's value
# (swap_bound: two cards of one hand with nothing between them in power), in every node.
no_table_roem = rules_strategy.filter(lambda rules: rules.roem != "table")


@settings(max_examples=60, **SLOW)
@given(positions(rules=no_table_roem, tricks_left=st.integers(2, 3)))
def test_cards_bounded_by_a_near_twin_keep_every_value(game):
    solver = Solver(table_mb=1)
    for objective in ("points", "make"):
        assert solver.move_values(game, objective) == minimax_moves(game, objective), objective


# Positions (the objective, the rules' options, Deal.random seed, trump, leader, playing
# team, cards played) where a near-twin's bound gave wrong values when taken once instead of
# twice the points apart, or with a card of another hand between the two (points, no roem on
# the table); or, for the card points of a nat="82" make, which roem never enters (so with
# roem on the table), when it left out their points' difference.
NEAR_TWIN_POSITIONS = [
    ("points", dict(roem="hand", trump_duty="rotterdam", undertrump="must"),
     948020397, "H", "N", "NS", "HA HJ HQ H7 CA C9 CT CK D7 DQ DJ D9 HT HK H8 H9 D8 DA DK DT"),
    ("points", dict(roem="none", trump_duty="rotterdam", undertrump="must"),
     707375025, "H", "E", "EW", "H7 HJ HT C9 CK C8 CJ CT SJ H9 SK S9 D7 DK DA D8 DT DQ DJ D9"),
    ("points", dict(roem="hand", trump_duty="rotterdam", undertrump="free"),
     739517034, "D", "W", "NS",
     "CK CJ CQ C7 DA DQ DJ D7 HJ H7 H9 HT DK C8 DT HQ S8 SQ S7 SA HK"),
    ("points", dict(roem="none", trump_duty="rotterdam", undertrump="must"),
     782398553, "S", "W", "NS",
     "H9 HK HT SK C7 CA C9 C8 D9 D8 DK D7 CJ CT S9 CQ DA SQ DQ DJ S7"),
    ("points", dict(roem="none", trump_duty="rotterdam", undertrump="forbidden"),
     210805896, "D", "E", "EW",
     "C9 CJ CA CQ S8 SK SJ SQ DA DQ DK D9 ST S9 S7 D7 C8 CK D8 CT DT SA"),
    ("points", dict(roem="hand", trump_duty="rotterdam", undertrump="free"),
     829361248, "S", "W", "EW",
     "HJ HK H8 HQ SA ST SJ SK S7 CQ S9 C7 CJ CT CA CK S8 HT D7 C8 SQ"),
    ("make", dict(nat="82", trump_duty="amsterdam", undertrump="free"),
     487199804, "D", "S", "EW", "ST SJ SQ SA HJ H9 HQ HT DA DQ DJ DT C7 C8 CQ CA HA H7 CJ H8"),
    ("make", dict(nat="82", trump_duty="rotterdam", undertrump="forbidden"),
     163571762, "D", "N", "NS", "SQ SK SJ S7 C8 CJ CQ CT H9 H7 HQ HT C7 CK C9 D7 H8 DA HK DJ"),
    ("make", dict(nat="82", trump_duty="amsterdam", undertrump="free"),
     298145989, "S", "W", "EW",
     "DJ S7 DT D8 SK HA ST S9 HQ HJ H8 SJ CK CJ C9 C7 CQ S8 CT C8 H9"),
    ("make", dict(nat="82", trump_duty="amsterdam", undertrump="forbidden"),
     483006872, "H", "S", "NS", "S9 SK S8 SA H7 HK H9 HA SQ D9 D7 ST CQ C8 CA CK DT DQ DA DK"),
]


@pytest.mark.parametrize("objective, options, seed, trump, leader, playing, played",
                         NEAR_TWIN_POSITIONS)
def test_near_twin_positions_equal_reference(objective, options, seed, trump, leader, playing,
                                             played):
    rules = Rules(**options)
    game = Game(Deal.random(seed), trump, leader, playing, rules)
    game.replay(played)
    assert Solver(rules, table_mb=1).move_values(game, objective) == \
        minimax_moves(game, objective)


@pytest.mark.slow
@settings(max_examples=60, **SLOW)
@given(positions(tricks_left=st.just(4)))
def test_engine_equals_reference_with_four_tricks_left(game):
    assert_engine_equals_reference(game)


@settings(max_examples=40, **SLOW)
@given(positions(tricks_left=st.integers(1, 3)), st.sampled_from(["points", "score", "make"]))
def test_line_reaches_the_value(game, objective):
    """Playing the returned line to the end gives exactly the value solved."""
    res = Solver().solve(game.deal, game.trump, game.leader, game.playing, game.rules,
                         game.played, objective)
    end = game.copy()
    end.replay(res.line)
    assert end.is_over
    assert objective_value(objective, end.tallies(), end.playing, end.trump, end.rules) == res.value
    assert res.totals == {t.name: end.tally(t).total for t in end.tallies()}


def crosscheck_rows():
    if not CROSSCHECK.exists():
        return []
    return [json.loads(line) for line in CROSSCHECK.read_text().splitlines() if line.strip()]


@pytest.mark.skipif(not CROSSCHECK.exists(), reason="shared/crosscheck is not beside the checkout")
def test_independent_crosscheck_positions():
    rows = crosscheck_rows()
    assert len(rows) > 100
    for row in rows:
        solver = Solver(Rules(**row["rules"]), table_mb=4)
        game = solver.game(Deal.from_pbn(row["deal"]), row["trump"], row["leader"],
                           row["playing"], played=row["played"])
        where = f"{row['variant']} {row['deal']} played={row['played']}"
        assert solver.value(game, "points") == row["points_diff"], where
        assert solver.value(game, "make") == row["makeable"], where
        if "score_diff" in row:
            assert solver.value(game, "score") == row["score_diff"], where


# -- the API -----------------------------------------------------------------------------------

DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")


def test_solve_full_deal():
    res = solve(DEAL, trump="S", leader="S", playing="EW", rules=Rules.amsterdam())
    assert res.value == -2
    assert res.totals == {"NS": 102, "EW": 100}
    assert len(res.line) == 32 and res.nodes > 0


def test_points_for_one_team_is_minus_the_other():
    ns = solve(DEAL, trump="H", leader="N", playing="NS").value
    ew = solve(DEAL, trump="H", leader="N", playing="EW").value
    assert ns == -ew


def test_make_is_a_bool_and_agrees_with_points():
    res = solve(DEAL, trump="S", leader="S", playing="EW", objective="make")
    assert res.value is False


def test_solve_moves_scores_every_legal_card():
    values = solve_moves(DEAL, trump="S", leader="S", playing="EW", played=["SK"])
    game = Game(DEAL, "S", "S", "EW")
    game.play("SK")
    assert set(values) == set(game.legal_cards())
    # W is to move and plays for EW, the playing team: its best card gives the solved value.
    assert max(values.values()) == solve(DEAL, "S", "S", "EW", played=["SK"]).value


def test_played_cards_may_be_strings_or_cards_and_end_inside_a_trick():
    a = solve(DEAL, "S", "S", "EW", played=["SK", "S9"]).value
    b = solve(DEAL, "S", "S", "EW", played=[Card.parse("SK"), Card.parse("S9")]).value
    assert a == b


def test_illegal_played_sequence_raises():
    with pytest.raises(IllegalPlayError, match="trick 1, seat W"):
        solve(DEAL, "S", "S", "EW", played=["SK", "HT"])


def test_unknown_objective_is_named():
    with pytest.raises(ValueError, match="unknown objective 'win'"):
        solve(DEAL, "S", "S", "EW", objective="win")


def test_solver_is_reusable_across_rules_and_deals():
    solver = Solver(table_mb=2)
    first = solver.solve(DEAL, "S", "S", "EW").value
    solver.solve(Deal.random(3), "H", "N", "NS", rules=Rules.rotterdam())
    assert solver.solve(DEAL, "S", "S", "EW").value == first


@st.composite
def lopsided_positions(draw):
    """Deals where NS hold the trumps and aces, so that pit and "has won a trick" matter."""
    trump = draw(st.sampled_from(list(Suit)))
    rnd = draw(st.randoms(use_true_random=False))
    strong = [c for c in ALL_CARDS if c.suit == trump or c.rank == Rank.ACE]
    weak = [c for c in ALL_CARDS if c not in strong]
    rnd.shuffle(strong)
    rnd.shuffle(weak)
    ns_cards = (strong + weak)[:16]
    ew_cards = (strong + weak)[16:]
    deal = Deal({"N": ns_cards[:8], "S": ns_cards[8:], "E": ew_cards[:8], "W": ew_cards[8:]})
    game = Game(deal, trump, draw(st.sampled_from(list(Seat))), draw(st.sampled_from(list(Team))),
                draw(rules_strategy))
    for _ in range(draw(st.integers(20, 28))):
        legal = game.legal_cards()
        game.play(legal[draw(st.integers(0, len(legal) - 1))])
    return game


@settings(max_examples=40, **SLOW)
@given(lopsided_positions())
def test_engine_equals_reference_when_pit_is_in_play(game):
    assert_engine_equals_reference(game)


# -- the root in one engine call --------------------------------------------------------------------

def independent_values(solver, game, objective):
    values = {}
    for card in game.legal_cards():
        game.play(card)
        values[card] = solver.value(game, objective)
        game.undo()
    return values


@settings(max_examples=40, **SLOW)
@given(positions(tricks_left=st.integers(1, 5)), st.sampled_from(["points", "score", "make"]))
def test_windowed_move_values_equal_independent_searches(game, objective):
    solver = Solver(table_mb=1)
    assert solver.move_values(game, objective) == independent_values(Solver(table_mb=1), game, objective)


@pytest.mark.parametrize("seed", range(4))
def test_windowed_move_values_equal_independent_searches_on_full_deals(seed):
    game = Game(Deal.random(seed), "CDHS"[seed], "NESW"[seed], "NS", Rules())
    assert Solver().move_values(game) == independent_values(Solver(), game, "points")


@settings(max_examples=30, **SLOW)
@given(positions(tricks_left=st.integers(1, 3)), st.sampled_from(["points", "score", "make"]))
def test_the_engine_line_is_the_first_card_that_keeps_the_value(game, objective):
    solver = Solver(table_mb=1)
    value = solver.value(game, objective)
    expected, copy = [], game.copy()
    while not copy.is_over:
        values = independent_values(solver, copy, objective)
        card = next(c for c in copy.legal_cards() if values[c] == value)
        copy.play(card)
        expected.append(card)
    assert solver.line(game, objective, value) == expected
    if expected:
        assert solver.best_card(game, objective) == expected[0]


def assert_every_card_keeps_the_value(game, objective, res):
    """Each card of `res.line` has the value solved, as independent searches find it."""
    copy = game.copy()
    for card in res.line:
        assert independent_values(Solver(table_mb=1), copy, objective)[card] == res.value
        copy.play(card)
    assert copy.is_over


@pytest.mark.parametrize("max_examples", example_counts(30))
def test_every_card_of_the_solve_line_keeps_the_value(max_examples):
    @settings(max_examples=max_examples, **SLOW)
    @given(positions(tricks_left=st.integers(1, 4)), st.sampled_from(["points", "score", "make"]))
    def check(game, objective):
        res = Solver(table_mb=1).solve(game.deal, game.trump, game.leader, game.playing,
                                       game.rules, game.played, objective)
        assert_every_card_keeps_the_value(game, objective, res)
        # The root's search picks the card the line's tests in preferred order pick.
        assert res.line == Solver(table_mb=1)._keeping(game, objective, res.value, 32,
                                                       preferred=True)
    check()


@pytest.mark.parametrize("seed", range(2))
def test_solve_line_on_a_full_deal_keeps_the_value_and_ignores_the_table(seed):
    """The line of `solve` is a function of the position: a table warmed by other searches
    (another objective, another deal, the same deal) gives the same line."""
    deal, trump, leader = Deal.random(seed), "SHDC"[seed], "ESWN"[seed]
    fresh = Solver().solve(deal, trump, leader, "NS")
    warm = Solver()
    warm.solve(deal, trump, leader, "NS", objective="score")
    warm.solve_moves(Deal.random(seed + 10), trump, leader, "NS")
    warm.solve(deal, trump, leader, "NS")
    again = warm.solve(deal, trump, leader, "NS")
    assert again.line == fresh.line and again.value == fresh.value
    assert_every_card_keeps_the_value(Game(deal, trump, leader, "NS", Rules()), "points", fresh)


@settings(max_examples=120, **SLOW)
@given(positions(tricks_left=st.integers(1, 3)))
def test_the_score_shortcut_equals_the_full_score_search(game):
    """Solver.value(.., "score") answers from the points search where it can; the engine's
    own score search must agree under every rule variant."""
    from solver.engine import _engine
    solver = Solver(table_mb=1)
    full = solver._search(game, _engine.Metric.METRIC_SCORE)
    assert solver.value(game, "score") == full == minimax(game, "score").value
