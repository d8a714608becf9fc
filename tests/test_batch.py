"""solver.batch: arrays of positions in, every card's value out, equal to one solve_moves
call per position; a bad row raises naming the row."""
import ast
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, ledig_or_three, rules_strategy
from solver import Deal, Game, IllegalPlayError, NotationError, Rules, Seat, Solver, Suit, Team
from solver.batch import (NOT_LEGAL, PositionBatch, deal_row, game_rows, move_values,
                          played_row, position_values)
from solver.errors import DealError, SolverError
from solver.model.cards import ALL_CARDS
from solver.model.scoring import value_for_team


def random_rows(seed, count, rules, least=0, most=31):
    """`count` positions after random legal play, as the batch's arrays and as Games."""
    rng = np.random.default_rng(seed)
    deal = np.zeros((count, 32), dtype=np.int8)
    trump, leader, playing = (rng.integers(0, 4, count), rng.integers(0, 4, count),
                              rng.integers(0, 2, count))
    played = np.full((count, 32), -1, dtype=np.int8)
    games = []
    for row in range(count):
        game = Game(Deal.random(int(rng.integers(2**32))), Suit(int(trump[row])),
                    Seat(int(leader[row])), Team(int(playing[row])), rules)
        for seat, hand in enumerate(game.deal.hands):
            deal[row, [c.index for c in hand]] = seat
        for _ in range(int(rng.integers(least, most + 1))):
            legal = game.legal_cards()
            game.play(legal[int(rng.integers(len(legal)))])
        played[row, :len(game.played)] = [c.index for c in game.played]
        games.append(game)
    return (deal, trump, leader, playing, played), games


def expected_row(game, objective):
    row = np.full(32, NOT_LEGAL, dtype=np.int16)
    team = game.to_move.team
    for card, value in Solver(game.rules).move_values(game, objective).items():
        row[card.index] = int(value_for_team(value, team, game.playing))
    return row


@settings(max_examples=25, **SLOW)
@given(rules_strategy, st.integers(0, 2**32 - 1), st.sampled_from(["points", "score", "make"]),
       st.sampled_from([1, 2]))
def test_batch_equals_independent_solve_moves_calls(rules, seed, objective, workers):
    arrays, games = random_rows(seed, 6, rules, least=12)
    values = move_values(*arrays, objective=objective, rules=rules, workers=workers)
    assert values.dtype == np.int16 and values.shape == (6, 32)
    for row, game in enumerate(games):
        assert values[row].tolist() == expected_row(game, objective).tolist(), row


def batch_arrays(games):
    """The batch's arrays (and bidder and dummy, None where no game has one) of `games`."""
    deal = np.zeros((len(games), 32), dtype=np.int8)
    played = np.full((len(games), 32), -1, dtype=np.int8)
    for row, game in enumerate(games):
        for seat, hand in enumerate(game.deal.hands):
            deal[row, [c.index for c in hand]] = seat
        played[row, :len(game.played)] = [c.index for c in game.played]
    column = lambda values: [-1 if v is None else int(v) for v in values]     # noqa: E731
    bidder = column(g.bidder for g in games) if games[0].bidder is not None else None
    dummy = column(g.dummy for g in games) if games[0].dummy is not None else None
    return ((deal, column(g.trump for g in games), column(g.leader for g in games),
             column(g.playing for g in games), played), {"bidder": bidder, "dummy": dummy})


@pytest.mark.parametrize("objective", ["points", "score", "make"])
@pytest.mark.parametrize("kind", ["ledig", "three players"])
def test_ledig_and_three_player_rows_equal_solve_moves(kind, objective):
    @settings(max_examples=12, **SLOW)
    @given(ledig_or_three(kind, tricks_left=8), st.sampled_from([1, 2]))
    def check(game, workers):
        games = [game, game.copy()]     # a batch has one rules: the position twice
        arrays, columns = batch_arrays(games)
        values = move_values(*arrays, objective=objective, rules=game.rules, workers=workers,
                             **columns)
        for row, one in enumerate(games):
            assert values[row].tolist() == expected_row(one, objective).tolist(), row
    check()


def test_batch_of_full_deals_and_scalars_for_every_row():
    arrays, games = random_rows(3, 3, Rules(), least=0, most=0)
    deal, _, _, _, played = arrays
    games = [Game(g.deal, "D", "S", "EW", g.rules) for g in games]
    values = move_values(deal, 1, 2, 1, played, workers=2)
    for row, game in enumerate(games):
        assert values[row].tolist() == expected_row(game, "points").tolist()


def test_a_finished_round_has_no_legal_card_and_an_empty_batch_no_rows():
    arrays, games = random_rows(5, 2, Rules(), least=32, most=32)
    assert (move_values(*arrays) == NOT_LEGAL).all()
    empty = np.zeros((0, 32), dtype=np.int8)
    assert move_values(empty, [], [], [], empty).shape == (0, 32)


def test_a_bad_row_raises_naming_it():
    (deal, trump, leader, playing, played), games = random_rows(7, 4, Rules(), least=4, most=8)
    bad = played.copy()
    game = games[2]
    illegal = next(c for c in game.hands[game.to_move.partner] if True)   # not its hand
    bad[2, len(game.played)] = illegal.index
    with pytest.raises(IllegalPlayError, match=r"^row 2: played\[\d+\]: .* does not hold"):
        move_values(deal, trump, leader, playing, bad)
    bad = played.copy()
    bad[1, 31] = 5
    with pytest.raises(IllegalPlayError, match=r"row 1: played\[31\] is 5 after the -1 padding"):
        move_values(deal, trump, leader, playing, bad)
    broken = deal.copy()
    broken[3, 0] = (broken[3, 0] + 1) % 4
    with pytest.raises(DealError, match="row 3: deal gives the seats"):
        move_values(broken, trump, leader, playing, played)
    with pytest.raises(SolverError, match=r"^row 0: trump is 4, not a suit 0\.\.3"):
        move_values(deal, [4, 0, 0, 0], leader, playing, played)
    # -1 (no trump) is for ledig rounds only.
    with pytest.raises(SolverError, match=r"^row 1: trump is -1, not a suit 0\.\.3"):
        move_values(deal, [0, -1, 0, 0], leader, playing, played)
    with pytest.raises(SolverError, match="played must have shape"):
        move_values(deal, trump, leader, playing, played[:, :5])
    with pytest.raises(SolverError, match="deal must hold whole numbers, got float64"):
        move_values(deal.astype(float), trump, leader, playing, played)


def test_a_duty_broken_names_the_row_and_the_duty():
    rules = Rules()
    for seed in range(50):
        (deal, trump, leader, playing, played), games = random_rows(seed, 1, rules, 1, 1)
        game = games[0]
        wrong = [c for c in game.hands[game.to_move] if c not in game.legal_cards()]
        if wrong:
            played[0, 1] = wrong[0].index
            with pytest.raises(IllegalPlayError, match=r"^row 0: played\[1\]: .*breaks the duty"):
                move_values(deal, trump, leader, playing, played)
            return
    pytest.fail("no position with an illegal card held")


@pytest.mark.parametrize("rules", [Rules.rotterdam(), Rules(roem="hand"), Rules(stuk="hand")],
                         ids=["rotterdam", "roem-in-hand", "stuk-in-hand"])
def test_threads_share_out_the_rows_and_keep_their_order(rules):
    """Rules that read the deal give every row rules of its own."""
    arrays, games = random_rows(9, 150, rules, least=22, most=30)
    values = move_values(*arrays, rules=rules, workers=2)
    for row, game in enumerate(games):
        assert values[row].tolist() == expected_row(game, "points").tolist(), row


def test_a_few_rows_early_in_the_round_keep_every_thread_busy():
    from solver.batch import PositionBatch
    early, games = random_rows(4, 8, Rules(), least=0, most=4)
    assert len(PositionBatch(*early, workers=2).engines) == 2
    late, _ = random_rows(4, 8, Rules(), least=20, most=24)
    assert len(PositionBatch(*late, workers=2).engines) == 1     # a thread costs more there
    values = move_values(*early, workers=2)
    for row, game in enumerate(games):
        assert values[row].tolist() == expected_row(game, "points").tolist(), row


class _Recording:
    """An engine that records the rows each of its search calls got."""

    def __init__(self, engine, calls):
        self.engine, self.calls = engine, calls

    @property
    def nodes(self):
        return self.engine.nodes

    def search_rows(self, *args, **kwargs):
        self.calls.append((self, len(args[3])))
        return self.engine.search_rows(*args, **kwargs)


def test_a_call_with_a_few_early_rows_gives_every_thread_some():
    # A view's scouting worlds: 4 rows of a batch of 32 at trick 1.
    early, games = random_rows(5, 32, Rules(), least=0, most=0)
    batch = PositionBatch(*early, workers=2)
    calls = []
    batch.engines = [_Recording(engine, calls) for engine in batch.engines]
    values = batch.values("points", [0, 1, 2, 3])
    assert {engine for engine, _ in calls} == set(batch.engines)
    for row, game in enumerate(games[:4]):
        assert values[row].tolist() == expected_row(game, "points").tolist(), row


def test_against_the_lead_alone_leaves_the_other_cards_unbounded():
    from solver.engine.search import _engine
    arrays, games = random_rows(6, 12, Rules(), least=0, most=20)
    batch = PositionBatch(*arrays, workers=1)
    truth = batch.values("points")
    lead = np.array([int(np.nonzero(row != NOT_LEGAL)[0][-1]) for row in truth], dtype=np.int8)
    before = batch.nodes
    values, exact = batch.against("points", lead, lead_only=True)
    alone = batch.nodes - before
    for row in range(batch.count):
        assert values[row, lead[row]] == truth[row, lead[row]] and exact[row, lead[row]]
        for card in np.nonzero(truth[row] != NOT_LEGAL)[0]:
            if card != lead[row] and truth[row, card] != truth[row, lead[row]]:
                assert values[row, card] == _engine.INFINITY and not exact[row, card]
    before = batch.nodes
    batch.against("points", lead)
    assert alone < batch.nodes - before


def test_against_searches_the_cards_asked_exactly():
    arrays, games = random_rows(7, 12, Rules(), least=0, most=20)
    batch = PositionBatch(*arrays, workers=2)
    truth = batch.values("points")
    lead = np.array([int(np.nonzero(row != NOT_LEGAL)[0][0]) for row in truth], dtype=np.int8)
    values, exact = batch.against("points", lead, exactly=range(32))
    legal = truth != NOT_LEGAL
    assert exact[legal].all() and (values[legal] == truth[legal]).all()
    # Some cards exactly, the others bounded as before: exact where flagged, else a bound.
    values, exact = batch.against("points", lead, margin=3, exactly=[0, 9, 17, 30])
    assert (values[exact] == truth[exact]).all()
    assert (values[legal & ~exact] >= truth[legal & ~exact]).all()
    for row in range(batch.count):
        for card in (0, 9, 17, 30):
            if legal[row, card]:
                assert values[row, card] == truth[row, card]


def rows_against_their_first_card(seed, count, least, most):
    """A batch of `count` random positions (default rules, two threads), every card's exact
    points value in each, which cards are legal, and each row's first legal card (the lead)."""
    arrays, _ = random_rows(seed, count, Rules(), least=least, most=most)
    batch = PositionBatch(*arrays, workers=2)
    truth = batch.values("points")
    legal = truth != NOT_LEGAL
    lead = np.array([int(np.nonzero(row)[0][0]) for row in legal], dtype=np.int8)
    return batch, truth, legal, lead


def test_a_card_asked_exactly_is_exact_where_an_interchangeable_card_stands_for_it():
    # Late in the round many cards are interchangeable: the one searched for a set of them
    # is searched exactly when any card of the set is asked for exactly.
    batch, truth, legal, lead = rows_against_their_first_card(11, 200, 16, 28)
    asked = list(range(1, 32, 2))
    values, exact = batch.against("points", lead, exactly=asked)
    assert exact[:, asked][legal[:, asked]].all()
    assert (values[exact] == truth[exact]).all()


def test_against_bounds_each_row_at_its_own_margins_above_or_below_the_lead():
    batch, truth, legal, lead = rows_against_their_first_card(8, 16, 0, 24)
    rng = np.random.default_rng(8)
    margins = rng.integers(-40, 41, (batch.count, 32))
    asked = [5, 13, 21]
    values, exact = batch.against("points", lead, row_margins=margins, exactly=asked)
    assert (values[exact] == truth[exact]).all()
    assert (values[legal] >= truth[legal]).all()
    assert all(exact[row, lead[row]] for row in range(batch.count))
    assert exact[:, asked][legal[:, asked]].all()
    for row in range(batch.count):
        # A card is exact where it is better than both the lead's value and its own window;
        # else its bound is no higher than the higher of the two.
        line = np.maximum(truth[row, lead[row]], truth[row, lead[row]] - margins[row])
        assert exact[row, legal[row] & (truth[row] > line)].all()
        bounded = legal[row] & ~exact[row]
        assert (values[row, bounded] <= line[bounded]).all()
    with pytest.raises(SolverError, match="row_margins"):
        batch.against("points", lead, row_margins=np.zeros((batch.count, 31), dtype=int))


def test_against_with_the_leads_values_known_gives_a_bound_or_infinity():
    batch, truth, legal, lead = rows_against_their_first_card(12, 16, 0, 24)
    rows = np.arange(batch.count)
    known = truth[rows, lead].astype(int)
    for shift in (-30, 0, 5, 30):
        margins = np.zeros((batch.count, 32), dtype=int)
        margins[:, :] = shift
        values, exact = batch.against("points", lead, row_margins=margins, lead_values=known,
                                      cards=range(32))
        assert (values[rows, lead] == known).all() and exact[rows, lead].all()
        # Exact alone where a card is interchangeable with the lead (searched once).
        assert (values[exact] == truth[exact]).all()
        bounded = legal & ~exact
        held = bounded & (values < 30000)
        assert (values[held] >= truth[held]).all()
        assert (values[held] <= (known[:, None] - shift)[held.nonzero()[0], 0]).all()
        # Where it did not hold, the card is better than the threshold.
        failed = bounded & ~held
        assert (truth[failed] > (known[:, None] - shift)[failed.nonzero()[0], 0]).all()
    values, exact = batch.against("points", lead, lead_values=known, cards=[])
    assert (values[legal & ~exact] >= 30000).all()
    # A card asked for alone is searched where a card interchangeable with it stands for it.
    margins = np.full((1, 32), -30)
    for row in range(batch.count):
        for card in np.nonzero(legal[row])[0]:
            values, exact = batch.against("points", lead[row:row + 1], [row],
                                          row_margins=margins, lead_values=known[row:row + 1],
                                          cards=[card])
            if not exact[0, card]:
                assert (values[0, card] < 30000) == (truth[row, card] <= known[row] + 30)


def solve_moves_row(game, objective):
    """solve_moves of `game` as a batch row: the playing team's view."""
    row = np.full(32, NOT_LEGAL, dtype=np.int16)
    for card, value in Solver(game.rules).move_values(game, objective).items():
        row[card.index] = int(value)
    return row


@settings(max_examples=20, **SLOW)
@given(rules_strategy, st.integers(0, 2**32 - 1), st.sampled_from(["points", "score", "make"]))
def test_position_values_equal_solve_and_playing_values_equal_solve_moves(rules, seed,
                                                                          objective):
    """position_values is each row's solve().value (a make as 1 or 0), finished rounds too;
    seen_from="playing" gives solve_moves' values."""
    arrays, games = random_rows(seed, 5, rules, least=20, most=32)
    batch = PositionBatch(*arrays, rules=rules, workers=1)
    values = batch.position_values(objective)
    assert values.dtype == np.int16 and values.shape == (5,)
    assert values.tolist() == [int(Solver(rules).value(g, objective)) for g in games]
    playing = batch.values(objective, seen_from="playing")
    for row, game in enumerate(games):
        assert playing[row].tolist() == solve_moves_row(game, objective).tolist(), row
    assert position_values(*arrays, objective=objective, rules=rules).tolist() == values.tolist()


@pytest.mark.parametrize("objective", ["points", "score", "make"])
@pytest.mark.parametrize("kind", ["ledig", "three players"])
def test_ledig_and_three_player_position_values_equal_solve(kind, objective):
    @settings(max_examples=8, **SLOW)
    @given(ledig_or_three(kind, tricks_left=4))
    def check(game):
        arrays = game_rows([game, game.copy()])
        assert position_values(**arrays, objective=objective).tolist() == \
            [int(Solver(game.rules).value(game, objective))] * 2
    check()


def test_rows_from_games_give_each_games_values():
    """game_rows (from deal_row and played_row) gives the batch's arguments of Games."""
    _, games = random_rows(11, 4, Rules.rotterdam(), least=0, most=20)
    values = move_values(**game_rows(games))
    for row, game in enumerate(games):
        assert values[row].tolist() == expected_row(game, "points").tolist(), row
    game = games[0]
    assert Deal([[ALL_CARDS[c] for c in np.nonzero(deal_row(game.deal) == seat)[0]]
                 for seat in range(4)]) == game.deal
    assert played_row(" ".join(str(c) for c in game.played)).tolist() == \
        game_rows([game])["played"][0].tolist()


def test_suits_seats_and_teams_may_be_written_as_letters():
    arrays, games = random_rows(12, 3, Rules(), least=4, most=12)
    deal, trump, leader, playing, played = arrays
    letters = move_values(deal, ["CDHS"[t] for t in trump], ["NESW"[s] for s in leader],
                          [["NS", "EW"][t] for t in playing], played)
    assert letters.tolist() == move_values(*arrays).tolist()
    one = move_values(deal[:1], Suit(trump[0]).letter, Seat(leader[0]).letter, "EW", played[:1])
    assert one.tolist() == move_values(deal[:1], trump[0], leader[0], 1, played[:1]).tolist()
    with pytest.raises(NotationError, match=r"^row 1: trump is 'X', not a suit 0\.\.3 or C"):
        move_values(deal, ["H", "X", "S"], leader, playing, played)


def test_the_bidder_or_dummy_gives_the_playing_team_and_playing_is_needed_otherwise():
    game = Game(Deal.random(3), None, "E", rules=Rules(contract="ledig"), bidder="W")
    arrays = game_rows([game])
    del arrays["playing"]
    assert position_values(**arrays).tolist() == [Solver(game.rules).value(game)]
    plain, _ = random_rows(3, 2, Rules(), least=0, most=0)
    with pytest.raises(NotationError, match="^playing is needed: a team 0..1 or NS, EW"):
        move_values(*plain[:3])


def test_not_legal_has_one_definition_the_label_schemas():
    from solver.model import label_row
    assigned = []
    for path in (pathlib.Path(label_row.__file__).parent.parent).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "NOT_LEGAL" for t in node.targets):
                assigned.append(path.name)
    assert assigned == ["label_row.py"]
    assert NOT_LEGAL == label_row.NOT_LEGAL
