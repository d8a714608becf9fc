"""The transposition table's key: positions that differ only in which 0-point cards are gone
share an entry, exactly when no rule can tell those cards apart."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, card_indices, example_counts, positions
from solver import Deal, Game, Rules, Seat, Solver, Suit
from solver.engine import _engine
from solver.engine.reference import minimax
from solver.engine.search import engine_spec

POINTS = _engine.Metric.METRIC_POINTS


def position(north_heart, west_heart):
    """Three tricks to go, North to lead; North's heart and West's heart vary."""
    hands = [card_indices(north_heart, "SA", "CA"), card_indices("HA", "S7", "C7"),
             card_indices("HT", "SJ", "CK"), card_indices(west_heart, "S9", "DA")]
    return (hands, [], 0, (0, 0), (0, 0), (5, 0), 3)


def nodes_after_warm_table(rules, first, second):
    """Nodes to search `second` right after `first`, and its value (checked on a cold table)."""
    game = Game(Deal.random(0), trump="S", leader="N", playing="NS", rules=rules)
    engine = _engine.Engine(1)
    engine.configure(engine_spec(game))
    engine.search(first, POINTS)
    before = engine.nodes
    value = engine.search(second, POINTS)
    cold = _engine.Engine(1)
    cold.configure(engine_spec(game))
    assert cold.search(second, POINTS) == value
    return engine.nodes - before


def test_a_gone_zero_point_card_shares_the_entry_of_another():
    # North holds H9 (H7, H8 gone), then H7 (H8, H9 gone): the same position for the search.
    rules = Rules(roem="none")
    assert nodes_after_warm_table(rules, position("H9", "HK"), position("H7", "HK")) == 1


def test_a_zero_point_card_that_could_make_a_run_is_not_renamed():
    # With roem on the table and HT, HJ still out, H9 can make a run that H7 cannot.
    with_run = Rules(roem="table")
    assert nodes_after_warm_table(with_run, position("H9", "HJ"), position("H7", "HJ")) > 1
    # Without the HJ no run goes through H9: renamed again.
    assert nodes_after_warm_table(with_run, position("H9", "HK"), position("H7", "HK")) == 1


def test_a_scoring_four_of_a_kind_of_nines_keeps_them_apart():
    nines = Rules(roem="table", four_of_a_kind={"9": 100})
    assert nodes_after_warm_table(nines, position("H9", "HK"), position("H7", "HK")) > 1


@pytest.mark.parametrize("max_examples", example_counts(25, 16))
def test_a_table_warm_from_sibling_positions_gives_reference_values(max_examples):
    # Every position after the next trick, solved on one table: siblings that differ only in
    # 0-point cards reuse each other's entries, and must still get their own exact values.
    @settings(max_examples=max_examples, **SLOW)
    @given(positions(tricks_left=st.just(3)), st.sampled_from(["points", "score"]))
    def check(game, objective):
        solver = Solver(game.rules, table_mb=1)
        while game.current_trick:
            game.play(game.legal_cards()[0])
        children = [game]
        for _ in range(4):
            children = [after(child, card) for child in children for card in child.legal_cards()]
        for child in children[::max(1, len(children) // 40)]:
            assert solver.value(child, objective) == minimax(child, objective).value, child.played
    check()


def after(game, card):
    game = game.copy()
    game.play(card)
    return game


# -- one deal per table epoch ---------------------------------------------------------------
# An entry holds the cards left, not who holds them (only the lowest ranks' owners): a table
# keeps one deal at a time, and a search of another deal starts a new epoch.

def swapped(deal, first, second):
    """`deal` with two cards of different hands exchanged."""
    hands = [list(deal[seat]) for seat in Seat]
    for hand in hands:
        hand[:] = [second if c == first else first if c == second else c for c in hand]
    return Deal(hands)


@pytest.mark.parametrize("max_examples", example_counts(25))
def test_a_deal_with_two_cards_exchanged_is_solved_on_its_own(max_examples):
    @settings(max_examples=max_examples, **SLOW)
    @given(st.integers(0, 2**32 - 1), st.sampled_from(list(Suit)), st.data())
    def check(seed, trump, data):
        deal = Deal.random(seed)
        first = data.draw(st.sampled_from(deal[Seat.N]))
        second = data.draw(st.sampled_from(deal[Seat.E] + deal[Seat.S]))
        objective = data.draw(st.sampled_from(["points", "score"]))
        solver = Solver(table_mb=1)
        solver.value(solver.game(deal, trump, "W", "NS"), objective)
        epoch = solver.engine.epoch
        game = solver.game(swapped(deal, first, second), trump, "W", "NS")
        assert solver.move_values(game, objective) == Solver(table_mb=1).move_values(game,
                                                                                    objective)
        assert solver.engine.epoch != epoch
    check()


def test_positions_of_one_deal_keep_the_table():
    solver = Solver(table_mb=1)
    game = solver.game(Deal.random(3), "H", "N", "EW")
    solver.value(game, "points")
    epoch, nodes = solver.engine.epoch, solver.engine.nodes
    solver.value(game, "points")
    assert solver.engine.epoch == epoch and solver.engine.nodes - nodes < 20
    later = game.copy()
    for _ in range(6):
        later.play(later.legal_cards()[0])
    solver.value(later, "score")
    assert solver.engine.epoch == epoch


def test_a_score_position_whose_points_are_not_its_cards_is_refused():
    # 20 cards played, and no points taken: the score's key could not tell it from another.
    game = Game(Deal.random(0), trump="S", leader="N", playing="NS", rules=Rules())
    engine = _engine.Engine(1)
    engine.configure(engine_spec(game))
    with pytest.raises(ValueError, match="not those of the cards played"):
        engine.search(position("H9", "HK"), _engine.Metric.METRIC_SCORE)
