"""Rounds at tables of three and two, ledig ones among them, through the layers: the ledig
table and bids, labels with a fixed dummy, the view's seat, the batch's columns, and the
round's checks naming a seat the rules do not take."""
import pytest

from solver import Card, Deal, Game, Rules, Seat, Solver
from solver.analysis import analyse_bidding, solve_table
from solver.cli import main
from solver.labels import LabelConfig, generate, load

DEAL_TEXT = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"
DEAL = Deal.from_pbn(DEAL_TEXT)
LEDIG_THREE = Rules(contract="ledig", players=3)


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def test_the_ledig_table_and_ledig_bids_at_a_table_of_three():
    # Double dummy, the value is the four-player one whichever hand of the team is the dummy.
    table = solve_table(DEAL, LEDIG_THREE, workers=1)
    four = solve_table(DEAL, Rules(contract="ledig"), workers=1)
    assert table.values == four.values
    bids = analyse_bidding(DEAL, "N", LEDIG_THREE, "draaikaart", "H", workers=1, worlds=2)
    assert [b.value for b in bids.ledig] == [
        b.value for b in analyse_bidding(DEAL, "N", Rules(contract="ledig"), "draaikaart", "H",
                                         workers=1).ledig]


def test_ledig_labels_at_a_table_of_three_with_a_fixed_dummy(tmp_path):
    # The bidder drawn per deal comes from the fixed dummy's team (the playing team), instead
    # of a RulesError on every deal whose bidder sat in the other team.
    config = LabelConfig(deals=8, seed=2, rules=LEDIG_THREE, dummy="N", positions="root",
                         format="npz")
    generate(config, tmp_path / "out", workers=1)
    rows = load(tmp_path / "out")
    assert len(rows["deal_id"]) == 8
    assert set(int(d) for d in rows["dummy"]) == {int(Seat.N)}
    assert {Seat(int(b)).team for b in rows["bidder"]} == {Seat.N.team}
    solver = Solver(LEDIG_THREE)
    for row in range(8):
        hands = [[Card.from_index(c) for c in range(32) if rows["deal"][row][c] == s]
                 for s in range(4)]
        game = Game(Deal(hands), None, int(rows["leader"][row]), rules=LEDIG_THREE,
                    bidder=int(rows["bidder"][row]), dummy="N")
        side = 1 if game.to_move.team == game.playing else -1
        assert int(rows["best"][row]) == max(side * v for v in solver.move_values(game).values())


@pytest.mark.parametrize("rules, dummy, seat", [(Rules(players=2), None, "E"),
                                               (Rules(players=3), "N", "S")])
def test_best_view_card_takes_the_seat_of_the_player_to_move_as_analyse_view_does(rules, dummy,
                                                                                 seat):
    # At a table of two or three the person to move plays two hands: either seat names him.
    from solver.analysis.view import analyse_view, best_view_card
    game = Game(DEAL, "H", "W", "NS", rules, dummy=dummy)
    if dummy is not None:
        game.play(game.legal_cards()[0])        # N, the dummy, is to move: S plays it
    assert seat != game.to_move.name
    view = analyse_view(game, seat=seat, worlds=4, workers=1)
    assert best_view_card(game, seat=seat, worlds=4, workers=1) in view.best_cards


@pytest.mark.parametrize("rules, named", [
    (Rules(contract="ledig"), "a ledig round needs the bidder column"),
    (Rules(players=3), "a round at a table of three needs the dummy column"),
    (LEDIG_THREE, "a ledig round at a table of three needs the bidder column"),
])
def test_solver_batch_names_the_column_a_round_needs(rules, named):
    # It said "needs the bidder seat: bidder='S', say", an argument move_values did not take.
    import numpy as np
    from solver import batch
    from solver.errors import RulesError
    deal = np.zeros((1, 32), dtype=np.int8)
    for seat, hand in enumerate(DEAL.hands):
        deal[0, [c.index for c in hand]] = seat
    with pytest.raises(RulesError, match=named):
        batch.move_values(deal, trump=1, leader=0, playing=0, rules=rules)


def test_a_seat_the_rules_do_not_take_is_named_by_its_letter(capsys):
    # The command line passes Seat objects: the error said dummy=<Seat.N: 0>.
    from solver.errors import RulesError
    with pytest.raises(RulesError, match=r"^dummy=N is for three-player rounds"):
        Game(DEAL, "H", "W", "NS", dummy=Seat.N)
    with pytest.raises(RulesError, match=r"^bidder=S is for ledig rounds"):
        Game(DEAL, "H", "W", "NS", bidder=Seat.S)
    assert main(["solve", DEAL_TEXT, "--trump", "H", "--leader", "W", "--playing", "NS",
                 "--dummy", "N"]) != 0
    assert "dummy=N is for three-player rounds" in capsys.readouterr().err
