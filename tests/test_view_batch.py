"""analyse_view solves its worlds in one batch (solver.batch): each world's values equal an
independent call; best_view_card returns a card whose exact mean is the best."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, example_counts, ledig_or_three, positions, rules_strategy
from solver import Deal, Game, Rules, Solver, SolverError
from solver.analysis.view import analyse_view, best_view_card, world_values


@settings(max_examples=30, **SLOW)
@given(positions(rules=rules_strategy, tricks_left=st.integers(1, 5)),
       st.sampled_from(["points", "score", "make"]), st.integers(0, 1000))
def test_batched_worlds_equal_independent_calls(game, objective, seed):
    if game.is_over:
        return
    view = analyse_view(game, worlds=5, seed=seed, objective=objective, workers=2)
    solver = Solver(game.rules)
    for index, world in enumerate(view.worlds):
        values, makes = world_values(solver, game, world, objective)
        assert {card: v[index] for card, v in view.values.items()} == values
    expected = [world_values(solver, game, world, objective)[1] for world in view.worlds]
    for card, stats in view.cards.items():
        assert stats.makes == sum(m[card] for m in expected) / len(expected)


@pytest.mark.parametrize("objective", ["points", "score", "make"])
@pytest.mark.parametrize("kind", ["ledig", "three players"])
def test_ledig_and_three_player_worlds_equal_independent_calls(kind, objective):
    @settings(max_examples=6, **SLOW)
    @given(ledig_or_three(kind, tricks_left=5), st.integers(0, 1000))
    def check(game, seed):
        if game.is_over:
            return
        test_batched_worlds_equal_independent_calls.hypothesis.inner_test(game, objective, seed)
        best = best_view_card(game, worlds=5, seed=seed, objective=objective, workers=1)
        assert best in analyse_view(game, worlds=5, seed=seed, objective=objective).best_cards
    check()


@pytest.mark.parametrize("examples", example_counts(25, factor=4))
def test_best_view_card_is_one_of_the_best_cards(examples):
    @settings(max_examples=examples, **SLOW)
    @given(positions(rules=rules_strategy, tricks_left=st.integers(2, 6)),
           st.sampled_from(["points", "score", "make"]), st.integers(0, 1000),
           st.integers(1, 12))
    def check(game, objective, seed, worlds):
        if game.is_over:
            return
        best = best_view_card(game, worlds=worlds, seed=seed, objective=objective, workers=2)
        view = analyse_view(game, worlds=worlds, seed=seed, objective=objective)
        assert best in view.best_cards
    check()


@pytest.mark.parametrize("seed", range(3))
def test_best_view_card_at_trick_one(seed):
    game = Game(Deal.random(seed), "SHDC"[seed], "NESW"[seed], "NS", Rules())
    best = best_view_card(game, worlds=8, seed=seed, solver=Solver())
    assert best in analyse_view(game, worlds=8, seed=seed).best_cards


@settings(max_examples=6, **SLOW)
@given(st.integers(0, 10_000), st.sampled_from([5, 9, 16]), st.sampled_from([0, 4, 9]))
def test_best_view_card_early_in_the_round(seed, worlds, cards):
    # Enough worlds for the bounds and the exact searches of the cards close to the lead
    # (past the scouting worlds), at trick 1 and a little later.
    game = Game(Deal.random(seed), "SHDC"[seed % 4], "NESW"[seed // 4 % 4], "NS", Rules())
    for _ in range(cards):
        game.play(game.legal_cards()[seed % len(game.legal_cards())])
    best = best_view_card(game, worlds=worlds, seed=seed, workers=2)
    assert best in analyse_view(game, worlds=worlds, seed=seed).best_cards


def test_best_view_card_refuses_what_analyse_view_refuses():
    game = Game(Deal.random(1), "H", "E", "NS")
    with pytest.raises(SolverError, match="seat S is not to play: E is"):
        best_view_card(game, seat="S")
    with pytest.raises(SolverError, match="worlds"):
        best_view_card(game, worlds=0)


def test_a_given_solver_searches_the_worlds_on_its_own_engine():
    game = Game(Deal.random(4), "C", "W", "EW")
    game.replay(game.legal_cards()[:1])
    solver = Solver()
    before = solver.engine.nodes
    view = analyse_view(game, worlds=4, seed=1, solver=solver)
    assert solver.engine.nodes > before and solver.search_seconds > 0
    assert view.values == analyse_view(game, worlds=4, seed=1, workers=2).values
    # The engine is left ready for the Solver's own calls.
    assert solver.solve_moves(game.deal, "C", "W", "EW", played=game.played) == \
        Solver().solve_moves(game.deal, "C", "W", "EW", played=game.played)
