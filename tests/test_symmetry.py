"""Values do not depend on where the players sit or on which two plain suits are which."""
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import positions, rules_strategy
from solver import Card, Deal, Seat, Solver, Suit, Team


def rotate(game, steps):
    """The same position with every seat moved `steps` places clockwise."""
    deal = Deal({Seat((s + steps) % 4): game.deal[s] for s in Seat})
    return dict(deal=deal, trump=game.trump, leader=Seat((game.leader + steps) % 4),
                playing=Team((game.playing + steps) % 2), played=game.played)


def swap_suits(game, a, b):
    """The same position with plain suits `a` and `b` exchanged on every card."""
    def swap(card):
        suit = {a: b, b: a}.get(card.suit, card.suit)
        return Card(suit, card.rank)
    deal = Deal([[swap(c) for c in game.deal[s]] for s in Seat])
    return dict(deal=deal, trump=game.trump, leader=game.leader, playing=game.playing,
                played=[swap(c) for c in game.played])


@settings(max_examples=20, deadline=None)
@given(positions(rules=rules_strategy, tricks_left=st.integers(2, 5)), st.integers(1, 3))
def test_rotating_all_seats_leaves_values_unchanged(game, steps):
    solver = Solver(game.rules, table_mb=2)
    for objective in ("points", "score", "make"):
        original = solver.solve(game.deal, game.trump, game.leader, game.playing,
                                played=game.played, objective=objective).value
        rotated = solver.solve(**rotate(game, steps), objective=objective).value
        assert original == rotated, objective


@settings(max_examples=20, deadline=None)
@given(positions(rules=rules_strategy, tricks_left=st.integers(2, 5)), st.data())
def test_swapping_two_plain_suits_leaves_values_unchanged(game, data):
    plain = [s for s in Suit if s != game.trump]
    a, b = data.draw(st.permutations(plain))[:2]
    solver = Solver(game.rules, table_mb=2)
    for objective in ("points", "score", "make"):
        original = solver.solve(game.deal, game.trump, game.leader, game.playing,
                                played=game.played, objective=objective).value
        swapped = solver.solve(**swap_suits(game, a, b), objective=objective).value
        assert original == swapped, objective


def test_threads_with_their_own_solver_agree_with_one_thread():
    jobs = [(Deal.random(seed), "SHDC"[seed % 4], "NESW"[seed % 4], "NS") for seed in range(6)]
    expected = [Solver().solve(*job).value for job in jobs]
    results = [None] * len(jobs)

    def work(i):
        results[i] = Solver(table_mb=4).solve(*jobs[i]).value

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == expected
