"""Where ledig, the tables of three and two and the speed paths meet: cases found wrong in
review, each kept as a test."""
import json

import pytest

from solver import Card, Deal, Game, GameRecord, Rules, Seat, Solver
from solver.analysis import analyse_bidding, solve_table
from solver.cli import main
from solver.labels import LabelConfig, generate, load

DEAL_TEXT = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"
DEAL = Deal.from_pbn(DEAL_TEXT)
LEDIG_THREE = Rules(contract="ledig", players=3)


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def test_house_rules_over_a_ledig_record_keep_its_chosen_trump_and_bonus(capsys, tmp_path):
    # --rules rotterdam keeps the record's contract; its ledig options go with it (the
    # record's trump was dropped, and the bonus reset to 50, without a word).
    path = tmp_path / "chosen.json"
    path.write_text(json.dumps({
        "deal": DEAL_TEXT, "leader": "W", "bidder": "S", "trump": "H",
        "rules": {"contract": "ledig", "ledig_trump": "chosen", "ledig_bonus": 100}}))
    assert main(["analyse", str(path), "--rules", "rotterdam", "--json", "--workers", "1"]) == 0
    record = json.loads(capsys.readouterr().out)["record"]
    assert record["trump"] == "H"
    assert (record["rules"]["trump_duty"], record["rules"]["ledig_trump"],
            record["rules"]["ledig_bonus"]) == ("rotterdam", "chosen", 100)
    # A ledig option named in --rules still replaces the record's.
    assert main(["analyse", str(path), "--rules", '{"ledig_bonus": 80}', "--json",
                 "--workers", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["record"]["rules"]["ledig_bonus"] == 80


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


def test_a_ledig_score_without_bonus_does_not_decide_the_make():
    # A ledig_bonus of 0 scores 0 whether or not the bidder takes a trick: the makes were
    # read from the score as "made" every time.
    rules = Rules(contract="ledig", ledig_bonus=0)
    game = Game(Deal.from_pbn("N:9.Q98.KQ.A8 Q.KJ7.97.K9 K7.-.T8.QJT7 AJT8.AT.AJ.-"), None,
                "N", rules=rules, bidder="N")
    solver = Solver(rules)
    values, makes = solver.move_values_and_makes(game, "score")
    assert set(values.values()) == {0}
    assert makes == solver.move_values(game, "make") and not all(makes.values())


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


@pytest.mark.parametrize("as_text", [lambda cards: (str(c) for c in cards),
                                     lambda cards: iter([cards[0]] + [str(c) for c in cards[1:]])])
def test_solve_moves_reads_cards_played_given_as_an_iterator(as_text):
    # The engine's path read the iterator, stopped at the first text card and read the rest
    # again from where it was: the values of another position, without a word.
    game = Game(DEAL, "H", "W", "NS")
    for _ in range(9):
        game.play(game.legal_cards()[0])
    cards = list(game.played)
    solver = Solver()
    assert solver.solve_moves(DEAL, "H", "W", "NS", played=as_text(cards)) == \
        solver.move_values(game)


def test_analysing_trump_and_ledig_rounds_together_keeps_points_and_tricks_apart(capsys,
                                                                                 tmp_path):
    # The mean loss per round added the ledig rounds' tricks to the trump rounds' points.
    from pathlib import Path
    examples = Path(__file__).resolve().parents[1] / "examples"
    trump, ledig = (GameRecord.load(examples / name) for name in ("game.json", "ledig.json"))
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in (trump, ledig)))
    assert main(["analyse", str(games), "--workers", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"]
    for name, file in (("mean_loss", "game.json"), ("mean_loss_ledig", "ledig.json")):
        assert main(["analyse", str(examples / file), "--workers", "1", "--json"]) == 0
        steps = json.loads(capsys.readouterr().out)["steps"]
        for seat in "NESW":
            assert summary[name][seat] == sum(s["loss"] for s in steps if s["seat"] == seat)
    assert main(["analyse", str(games), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "per trump round, in points" in out and "per ledig round, in tricks" in out
