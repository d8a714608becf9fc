"""Ledig beyond the engine: records, the ledig table, play and bid analysis, single dummy, the
report page, labels and the command line (docs/rules.md, "Ledig")."""
import json
from dataclasses import replace
from pathlib import Path

import pytest

from solver import (Card, Deal, Game, GameRecord, LedigTable, Rules, Seat, Solver, Suit,
                    Team)
from solver.analysis import analyse_bidding, analyse_play, analyse_view, solve_table
from solver.cli import main
from solver.engine.reference import minimax, minimax_moves
from solver.errors import LabelsError, RecordError, SolverError
from solver.html import render
from solver.labels import LabelConfig, generate, load

ROOT = Path(__file__).resolve().parents[1]
DEAL_TEXT = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"
DEAL = Deal.from_pbn(DEAL_TEXT)
LEDIG = Rules(contract="ledig")
CHOSEN = Rules(contract="ledig", ledig_trump="chosen")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "ledig.json"


def played_out(rules: Rules, trump, leader: str, bidder: str, pick=lambda legal: legal[-1]):
    """A whole legal play of DEAL as a ledig round, each seat playing `pick(legal)`."""
    game = Game(DEAL, trump, leader, rules=rules, bidder=bidder)
    while not game.is_over:
        game.play(pick(game.legal_cards()))
    return [str(c) for c in game.played]


def ledig_record(played=(), rules=LEDIG, trump=None, leader="W", bidder="S") -> GameRecord:
    return GameRecord(DEAL, trump, leader, rules=rules, played=tuple(played), bidder=bidder)


# -- the record ----------------------------------------------------------------------------------

def test_a_ledig_record_names_its_bidder_and_its_team_plays():
    record = GameRecord.from_dict({"deal": DEAL_TEXT, "leader": "W", "bidder": "S",
                                   "rules": {"contract": "ledig"}, "played": "HT HQ HJ H8"})
    assert (record.bidder, record.playing, record.trump) == (Seat.S, Team.NS, None)
    data = record.to_dict()
    assert data["bidder"] == "S" and "trump" not in data and data["format"] == 1
    assert GameRecord.from_dict(data) == record
    assert GameRecord.from_json_lines(json.dumps(data) + "\n") == [record]


def test_a_ledig_record_under_a_chosen_trump_keeps_it():
    record = ledig_record(rules=CHOSEN, trump="H", bidder="E")
    assert (record.trump.name, record.playing) == ("H", Team.EW)
    assert GameRecord.from_dict(record.to_dict()) == record


def test_old_records_read_as_before():
    old = GameRecord.load(Path(__file__).resolve().parents[1] / "examples" / "game.json")
    assert old.bidder is None and "bidder" not in old.to_dict()
    assert old.to_dict()["format"] == 1


@pytest.mark.parametrize("change, message", [
    ({"bidder": None}, "has no 'bidder' field"),
    ({"playing": "EW"}, "'playing': EW is not the team of the bidder S"),
    ({"trump": "H"}, "'trump': a ledig round under rules ledig_trump 'none' has no trump"),
    ({"rules": {"contract": "ledig", "ledig_trump": "chosen"}}, "has no 'trump' field"),
    ({"bidder": "X"}, "'bidder': unknown seat 'X'"),
    ({"rules": {"contract": "ledig"}, "played": "HT HQ H8"}, "'played': card 3"),
])
def test_a_bad_ledig_record_names_the_field(change, message):
    data = {"deal": DEAL_TEXT, "leader": "W", "bidder": "S", "rules": {"contract": "ledig"}}
    data.update(change)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict({k: v for k, v in data.items() if v is not None})


def test_a_trump_record_has_no_bidder():
    with pytest.raises(RecordError, match="'bidder' is only for a ledig round"):
        GameRecord(DEAL, "H", "W", "NS", bidder="S")
    with pytest.raises(RecordError, match="no 'trump' field"):
        GameRecord(DEAL, None, "W", "NS")


def test_the_schema_asks_for_the_bidder_of_a_ledig_round_only():
    from jsonschema import Draft202012Validator
    validator = Draft202012Validator(GameRecord.json_schema())
    ledig = {"deal": DEAL_TEXT, "leader": "W", "bidder": "S", "rules": {"contract": "ledig"}}
    assert list(validator.iter_errors(ledig)) == []
    assert list(validator.iter_errors({k: v for k, v in ledig.items() if k != "bidder"}))
    chosen = dict(ledig, rules={"contract": "ledig", "ledig_trump": "chosen"})
    assert list(validator.iter_errors(chosen)) and not list(
        validator.iter_errors(dict(chosen, trump="H")))
    trump = {"deal": DEAL_TEXT, "leader": "W", "trump": "H", "playing": "NS"}
    assert list(validator.iter_errors(trump)) == []
    assert list(validator.iter_errors(dict(trump, bidder="S")))
    assert list(validator.iter_errors({k: v for k, v in trump.items() if k != "playing"}))


def test_the_example_record_is_a_finished_ledig_round():
    record = GameRecord.load(EXAMPLE)
    assert record.rules.contract == "ledig" and record.bidder is not None
    assert len(record.played) == 32 and record.scores() is not None


# -- the ledig table -----------------------------------------------------------------------------

def test_the_ledig_table_holds_each_bidder_and_leader():
    table = solve_table(DEAL, LEDIG, workers=2)
    assert isinstance(table, LedigTable) and table.trumps == [None]
    solver = Solver(LEDIG)
    for bidder in Seat:
        for leader in Seat:
            game = Game(DEAL, None, leader, rules=LEDIG, bidder=bidder)
            value = solver.value(game, "points")
            assert table.value(bidder, leader) == value <= 0
            assert table.makeable(bidder, leader) == solver.value(game, "make")
    assert LedigTable.from_dict(json.loads(json.dumps(table.to_dict()))) == table
    assert solve_table(DEAL, LEDIG, workers=1) == table
    text = str(table)
    assert "bidder S" in text and "minus the tricks the bidder takes" in text
    assert "points" not in text         # the values are tricks
    assert "LedigTable(" in repr(table) and 'data-table="ledig"' in table._repr_html_()


def test_under_a_chosen_trump_the_ledig_table_is_by_trump_too():
    table = solve_table(DEAL, CHOSEN, workers=2)
    assert len(table.trumps) == 4
    for trump in "CDHS":
        game = Game(DEAL, trump, "N", rules=CHOSEN, bidder="E")
        assert table.value("E", "N", trump) == Solver(CHOSEN).value(game)
    with pytest.raises(SolverError, match="give trump="):
        table.value("E", "N")
    with pytest.raises(SolverError, match="has no trump"):
        solve_table(DEAL, LEDIG, workers=1).value("E", "N", "H")
    assert str(table).count("bidder N") == 4


# -- play analysis -------------------------------------------------------------------------------

def test_a_ledig_play_is_judged_in_tricks_as_the_reference_values_it():
    played = played_out(LEDIG, None, "W", "S")
    analysis = analyse_play(ledig_record(played), workers=1)
    game = Game(DEAL, None, "W", rules=LEDIG, bidder="S")
    for step in analysis.steps:
        assert step.unit == "tricks"
        if step.number > 20:        # few enough cards for the plain minimax
            assert step.values == minimax_moves(game)
        game.play(step.card)
    assert game.objective_value("points") == -analysis.actual.totals["NS"] + \
        sum(t.winner != Seat.S for t in game.tricks if t.winner.team == Team.NS)
    assert analysis.actual.made == (game.bidder_tricks() == 0)
    assert analysis.unit == "tricks"


def test_the_bidders_first_trick_is_marked():
    played = played_out(LEDIG, None, "W", "S")
    analysis = analyse_play(ledig_record(played), workers=1)
    game = Game(DEAL, None, "W", rules=LEDIG, bidder="S")
    game.replay(played)
    first = next((t.number for t in game.tricks if t.winner == Seat.S), None)
    assert analysis.bidder_first_trick == first
    assert analysis.to_dict()["bidder_first_trick"] == first
    summary = analysis.summary()
    assert "S bids ledig (no trump), W leads" in summary
    if first is not None:
        assert f"S took its first trick at trick {first} (ledig failed)" in summary
        assert "scores NS 0, EW 50" in summary


def test_a_ledig_analysis_reads_back_from_json():
    played = played_out(LEDIG, None, "W", "S")[:12]
    analysis = analyse_play(ledig_record(played), workers=1)
    from solver import PlayAnalysis
    again = PlayAnalysis.from_dict(json.loads(json.dumps(analysis.to_dict())))
    assert again == analysis and again.steps[0].unit == "tricks"
    assert "Unfinished after 12 cards" in analysis.summary()


def test_analyse_play_takes_a_deal_and_a_bidder():
    played = played_out(LEDIG, None, "W", "S")[:8]
    by_deal = analyse_play(DEAL, leader="W", rules=LEDIG, played=played, bidder="S", workers=1)
    assert by_deal == analyse_play(ledig_record(played), workers=1)
    with pytest.raises(RecordError, match="bidder= only with a Deal"):
        analyse_play(ledig_record(), bidder="S")


def test_single_dummy_verdicts_in_ledig_use_a_line_in_tricks():
    played = played_out(LEDIG, None, "W", "S")[:24]
    analysis = analyse_play(ledig_record(played), worlds=8, seed=1, workers=1)
    step = analysis.steps[-1]
    assert step.sd_worlds == 8 and step.verdict in ("optimal", "unlucky", "mistake", "uncertain")
    assert "0.5 tricks" in analysis.summary()


# -- single dummy --------------------------------------------------------------------------------

def test_a_ledig_view_is_each_card_over_worlds_of_the_same_round():
    game = Game(DEAL, None, "W", rules=LEDIG, bidder="S")
    game.replay(played_out(LEDIG, None, "W", "S")[:21])
    view = analyse_view(game, worlds=6, seed=3, workers=1)
    assert set(view.cards) == set(game.legal_cards())
    for world, index in zip(view.worlds, range(6)):
        play = Game(world, None, "W", rules=LEDIG, bidder="S")
        play.replay(game.played)
        values = minimax_moves(play)
        for card in view.cards:
            mine = values[card] if game.to_move.team == Team.NS else -values[card]
            assert view.values[card][index] == mine


# -- bidding ------------------------------------------------------------------------------------

def test_bid_analysis_says_whether_each_seat_could_bid_ledig():
    bids = analyse_bidding(DEAL, "E", Rules(), procedure="draaikaart", turned="H", ledig=True,
                           workers=1)
    table = solve_table(DEAL, LEDIG, workers=1)
    for seat in Seat:
        bid = bids.ledig_bid(seat)
        assert bid.leader == Seat.S and bid.value == table.value(seat, "S")
        assert bid.makeable == (bid.value == 0)
    assert "ledig, no trump" in str(bids) and 'data-table="ledig-bids"' in bids._repr_html_()
    from solver import BidAnalysis
    assert BidAnalysis.from_dict(json.loads(json.dumps(bids.to_dict()))).ledig == bids.ledig
    plain = analyse_bidding(DEAL, "E", Rules(), procedure="draaikaart", turned="H", workers=1)
    assert plain.ledig == [] and "ledig" not in str(plain) and "ledig" not in plain.to_dict()
    assert plain.options == bids.options


def test_ledig_rules_give_ledig_beside_the_trump_bids():
    bids = analyse_bidding(DEAL, "E", CHOSEN, procedure="free", chooser_leads=True, workers=1)
    assert bids.rules.contract == "trump" and len(bids.ledig) == 16
    assert bids.ledig_bid("N", "H").leader == Seat.N
    from solver import BidAnalysis      # clubs (suit 0) and N (seat 0) read back as given
    again = BidAnalysis.from_dict(json.loads(json.dumps(bids.to_dict())))
    assert again.ledig == bids.ledig and again.ledig_bid("N", "C") == bids.ledig_bid("N", "C")
    with pytest.raises(SolverError, match="no ledig of N"):
        bids.ledig_bid("N")


# -- the report page -----------------------------------------------------------------------------

def test_the_report_of_a_ledig_round_counts_tricks_and_marks_the_bidders_first():
    record = GameRecord.load(EXAMPLE)
    analysis = analyse_play(record, workers=1)
    table = solve_table(record.deal, record.rules, workers=1)
    page = render(analysis, table, Solver(record.rules).value(record.game(), "score"))
    assert f"{record.bidder} bids ledig" in page and 'data-table="ledig"' in page
    assert "Ledig: the bidder undertakes to take no trick" in page
    first = analysis.bidder_first_trick
    assert (f'data-trick="{first}" data-bidder-first="1"' in page) == (first is not None)
    assert page.count('data-bidder-first="1"') == (first is not None)
    if any(s.loss for s in analysis.steps):
        # A loss in ledig is a trick more for the bidder, or one fewer (a defender's card).
        assert "gave the bidder 1 trick more" in page or "gave the bidder 2 tricks more" in page \
            or "let the bidder take" in page


def test_the_report_refuses_a_table_of_the_other_contract():
    record = GameRecord.load(EXAMPLE)
    analysis = analyse_play(record, workers=1)
    trump_table = solve_table(record.deal, Rules(), workers=1)
    with pytest.raises(SolverError, match="ledig table"):
        render(analysis, trump_table, 0)


# -- labels --------------------------------------------------------------------------------------

def test_ledig_labels_carry_the_bidder_and_values_in_tricks(tmp_path):
    config = LabelConfig(deals=2, seed=5, rules=LEDIG, positions="trick-starts", format="npz")
    generate(config, tmp_path, workers=1)
    rows = load(tmp_path)
    assert list(rows)[:6] == ["deal_id", "deal", "trump", "leader", "playing", "bidder"]
    assert set(rows["trump"]) == {-1}
    assert all(int(p) == Seat(int(b)).team for p, b in zip(rows["playing"], rows["bidder"]))
    for best, to_move, playing in zip(rows["best"], rows["to_move"], rows["playing"]):
        # minus the bidder's tricks, from the team to move
        assert (-8 <= best <= 0) if Seat(int(to_move)).team == playing else (0 <= best <= 8)
    last = len(rows["deal_id"]) - 1     # trick 8's lead: check against the reference
    hands = [[Card.from_index(c) for c in range(32) if rows["deal"][last][c] == s]
             for s in range(4)]
    game = Game(Deal(hands), None, int(rows["leader"][last]), rules=LEDIG,
                bidder=int(rows["bidder"][last]))
    game.replay([Card.from_index(int(c)) for c in rows["played"][last] if c >= 0])
    team = game.to_move.team
    for card, value in minimax_moves(game).items():
        assert rows["values"][last][card.index] == (value if team == game.playing else -value)


def test_a_trump_labels_run_keeps_its_columns_and_old_configs_load():
    config = LabelConfig(deals=1, positions="root")
    assert "bidder" not in config.to_dict() or config.to_dict()["bidder"] is None
    from solver.labels import schema
    assert "bidder" not in schema(config)
    old = {k: v for k, v in config.to_dict().items() if k != "bidder"}
    assert LabelConfig.from_dict(old) == config


@pytest.mark.parametrize("options, message", [
    (dict(bidder="S"), "bidder=S is for ledig"),
    (dict(rules=LEDIG, playing="NS"), "the bidder's team plays"),
    (dict(rules=LEDIG, trump="H"), "no trump unless"),
])
def test_labels_refuse_seats_the_contract_does_not_take(options, message):
    with pytest.raises(LabelsError, match=message):
        LabelConfig(**options)


# -- the command line ----------------------------------------------------------------------------

def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def test_solve_ledig_from_the_command_line(capsys):
    played = " ".join(played_out(LEDIG, None, "W", "S")[:24])
    status, out, _ = run(capsys, "solve", DEAL_TEXT, "--contract", "ledig", "--bidder", "S",
                         "--leader", "W", "--played", played, "--json")
    game = Game(DEAL, None, "W", rules=LEDIG, bidder="S")
    game.replay(played)
    assert status == 0 and json.loads(out)["value"] == minimax(game).value
    status, out, _ = run(capsys, "solve", DEAL_TEXT, "--contract", "ledig", "--bidder", "S",
                         "--leader", "W", "--played", played)
    assert status == 0 and "points for NS (S bids ledig)" in out and "totals" not in out


def test_table_ledig_from_the_command_line(capsys):
    status, out, _ = run(capsys, "table", DEAL_TEXT, "--contract", "ledig", "--json",
                         "--workers", "1")
    assert status == 0
    assert LedigTable.from_dict(json.loads(out)) == solve_table(DEAL, LEDIG, workers=1)
    status, out, _ = run(capsys, "table", DEAL_TEXT, "--contract", "ledig", "--workers", "1")
    assert "bidder W" in out


def test_analyse_and_report_a_ledig_record(capsys, tmp_path):
    status, out, _ = run(capsys, "analyse", str(EXAMPLE), "--workers", "1")
    assert status == 0 and "bids ledig" in out
    status, out, _ = run(capsys, "report", str(EXAMPLE), "-o", str(tmp_path / "l.html"),
                         "--workers", "1")
    assert status == 0 and "bids ledig" in (tmp_path / "l.html").read_text()


def test_a_trump_record_judged_as_ledig_with_its_trump(capsys):
    record = str(Path(__file__).resolve().parents[1] / "examples" / "game.json")
    status, out, _ = run(capsys, "analyse", record, "--contract", "ledig", "--bidder", "E",
                         "--rules", '{"ledig_trump": "chosen"}', "--json", "--workers", "1")
    assert status == 0
    data = json.loads(out)
    assert data["record"]["bidder"] == "E" and data["record"]["rules"]["contract"] == "ledig"
    assert data["record"]["trump"] == "S" and data["steps"][0]["unit"] == "tricks"
    # Without trump other seats win the tricks, so the recorded play cannot be replayed.
    status, out, err = run(capsys, "analyse", record, "--contract", "ledig", "--bidder", "E")
    assert status == 2 and "field 'played': card 5" in err


def test_view_and_bid_with_ledig(capsys):
    played = " ".join(played_out(LEDIG, None, "W", "S")[:22])
    status, out, _ = run(capsys, "view", DEAL_TEXT, "--contract", "ledig", "--bidder", "S",
                         "--leader", "W", "--played", played, "--worlds", "4", "--workers", "1")
    assert status == 0 and "worlds" in out
    status, out, _ = run(capsys, "bid", DEAL_TEXT, "--dealer", "E", "--turned", "H",
                         "--contract", "ledig", "--workers", "1")
    assert status == 0 and "ledig, no trump" in out


def test_labels_ledig_from_the_command_line(capsys, tmp_path):
    status, out, err = run(capsys, "labels", "--deals", "1", "--positions", "root", "--format",
                           "npz", "--contract", "ledig", "--bidder", "E", "--out",
                           str(tmp_path / "l"), "--workers", "1", "--quiet")
    assert status == 0, err
    rows = load(tmp_path / "l")
    assert list(rows["bidder"]) == [1] and list(rows["playing"]) == [1]


@pytest.mark.parametrize("argv, message", [
    (["solve", DEAL_TEXT, "--leader", "W", "--bidder", "S", "--trump", "H", "--playing", "NS"],
     "--bidder S is for a ledig round: add --contract ledig"),
    (["solve", DEAL_TEXT, "--leader", "W", "--contract", "ledig"],
     "--contract ledig needs --bidder"),
    (["solve", DEAL_TEXT, "--leader", "W", "--contract", "ledig", "--bidder", "S",
      "--playing", "EW"], "--playing EW is not the team of --bidder S"),
    (["solve", DEAL_TEXT, "--leader", "W", "--contract", "ledig", "--bidder", "S",
      "--trump", "H"], "--trump H: ledig has no trump"),
    (["solve", DEAL_TEXT, "--leader", "W", "--contract", "ledig", "--bidder", "S",
      "--rules", '{"ledig_trump": "chosen"}'], "--trump is required"),
    (["solve", DEAL_TEXT, "--leader", "W", "--trump", "H"],
     "the following arguments are required: --playing"),
    (["solve", DEAL_TEXT, "--leader", "W", "--contract", "nil", "--bidder", "S"],
     "argument --contract: invalid choice: 'nil'"),
    (["solve", DEAL_TEXT, "--leader", "W", "--contract", "ledig", "--bidder", "X"],
     "argument --bidder"),
    (["view", DEAL_TEXT, "--leader", "W", "--contract", "ledig"], "--contract ledig needs --bidder"),
    (["analyse", str(Path(__file__).resolve().parents[1] / "examples" / "game.json"),
      "--contract", "ledig"], "--contract ledig needs --bidder: the record names no bidder"),
    (["analyse", str(Path(__file__).resolve().parents[1] / "examples" / "game.json"),
      "--bidder", "E"], "--bidder E is for a ledig round"),
    (["report", str(EXAMPLE), "--contract", "trump"], "--contract trump: this record is a ledig"),
    # --rules that change the game are named, not --contract the command line did not give.
    (["report", str(EXAMPLE), "--rules", '{"contract": "trump"}'],
     """--rules '{"contract": "trump"}': this record is a ledig round without trump"""),
    (["analyse", str(EXAMPLE), "--rules", '{"ledig_trump": "chosen"}'],
     """--rules '{"ledig_trump": "chosen"}': under ledig_trump chosen the round needs a trump"""),
    (["analyse", str(Path(__file__).resolve().parents[1] / "examples" / "game.json"),
      "--rules", '{"contract": "ledig"}'], "--rules '{\"contract\": \"ledig\"}' needs --bidder"),
    # A play that no longer fits the new game (other trick winners) names the options.
    (["analyse", str(Path(__file__).resolve().parents[1] / "examples" / "game.json"),
      "--contract", "ledig", "--bidder", "N"],
     "the record under --contract ledig --bidder N: game record field 'played'"),
    (["analyse", str(EXAMPLE), "--rules", '{"players": 3}'],
     """the record under --rules '{"players": 3}': game record: a three-player round"""),
    (["labels", "--deals", "1", "--out", "x", "--bidder", "S"],
     "--bidder S is for a ledig round"),
    (["labels", "--deals", "1", "--out", "x", "--contract", "ledig", "--playing", "NS"],
     "the bidder's team plays"),
])
def test_command_line_errors_name_the_argument(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1, err


# -- more of the same, on random deals -------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_random_ledig_plays_are_judged_as_the_reference_values_them(seed):
    import random
    rng = random.Random(seed)
    rules = Rules(contract="ledig", ledig_trump=rng.choice(["none", "chosen"]),
                  trump_duty=rng.choice(["amsterdam", "rotterdam"]),
                  undertrump=rng.choice(["forbidden", "must", "free"]))
    deal = Deal.random(seed)
    trump = rng.choice("CDHS") if rules.ledig_trump == "chosen" else None
    bidder, leader = rng.choice(list(Seat)), rng.choice(list(Seat))
    game = Game(deal, trump, leader, rules=rules, bidder=bidder)
    while not game.is_over:
        game.play(rng.choice(game.legal_cards()))
    record = GameRecord(deal, trump, leader, rules=rules, played=tuple(game.played),
                        bidder=bidder)
    analysis = analyse_play(record, workers=1)
    replay = record.game()
    for step in analysis.steps:
        if step.number > 22:
            assert step.values == minimax_moves(replay), step.number
        replay.play(step.card)
    assert analysis.actual.made == (replay.bidder_tricks() == 0)
    assert analysis.actual.scores == {t.name: replay.final_scores()[t] for t in Team}
    assert analysis.bidder_first_trick == next(
        (t.number for t in replay.tricks if t.winner == bidder), None)


def test_a_revoke_in_a_ledig_round_ends_the_analysis_there():
    # W leads a heart; N holds hearts and plays a spade: a revoke.
    analysis = analyse_play(ledig_record(["HT", "SA"]), workers=1)
    assert analysis.illegal is not None and analysis.illegal.seat == Seat.N
    assert analysis.actual.totals == {"NS": 0, "EW": 0} and analysis.actual.made is None
    assert "(ledig revoke)" in analysis.summary()


def test_ledig_labels_under_a_chosen_trump_draw_the_trump(tmp_path):
    config = LabelConfig(deals=4, seed=2, rules=CHOSEN, positions="root", format="npz")
    generate(config, tmp_path, workers=1)
    rows = load(tmp_path)
    assert set(rows["trump"]) <= {0, 1, 2, 3} and len(rows["bidder"]) == 4


def test_with_worlds_each_ledig_gets_its_chance_from_the_bidders_hand():
    from solver import sample_worlds
    bids = analyse_bidding(DEAL, "E", LEDIG, procedure="free", worlds=5, seed=4, workers=1)
    plain = analyse_bidding(DEAL, "E", Rules(), procedure="free", worlds=5, seed=4, workers=1)
    assert bids.options == plain.options        # the trump bids as before, same worlds
    from solver.model.streams import derive
    for bid in bids.ledig:
        worlds = sample_worlds(Game(DEAL, "C", bid.seat, bid.seat.team), bid.seat, 5,
                               derive(4, bid.seat))
        values = [Solver(LEDIG).value(Game(w, None, bid.leader, rules=LEDIG, bidder=bid.seat))
                  for w in worlds]
        assert bid.sd_makes == sum(v == 0 for v in values) / 5
        assert bid.sd_value == sum(values) / 5
    assert "chance of taking no trick" in str(bids)
    from solver import BidAnalysis
    assert BidAnalysis.from_dict(json.loads(json.dumps(bids.to_dict()))).ledig == bids.ledig


def trump_then_ledig(folder):
    """A JSON Lines file of two records: examples/game.json, then the ledig example."""
    games = folder / "games.jsonl"
    trump = GameRecord.load(Path(__file__).resolve().parents[1] / "examples" / "game.json")
    games.write_text("".join(json.dumps(r.to_dict()) + "\n"
                             for r in (trump, GameRecord.load(EXAMPLE))))
    return games


def test_many_records_with_a_ledig_round_among_them(capsys, tmp_path):
    games = trump_then_ledig(tmp_path)
    status, out, err = run(capsys, "analyse", str(games), "--workers", "1")
    assert status == 0, err
    rows = out.splitlines()[1:3]
    assert "N ledig" in rows[1] and "(ledig failed)" in rows[1] and "N ledig" not in rows[0]


def test_an_error_in_many_records_names_the_round(capsys, tmp_path):
    games = trump_then_ledig(tmp_path)
    status, out, err = run(capsys, "analyse", str(games), "--contract", "trump")
    assert status == 2 and out == ""
    assert "games.jsonl, round 2: --contract trump: this record is a ledig" in err, err


def test_house_rules_over_a_ledig_record_keep_it_ledig(capsys):
    status, out, err = run(capsys, "analyse", str(EXAMPLE), "--rules", "rotterdam", "--json",
                           "--workers", "1")
    assert status == 0, err
    rules = json.loads(out)["record"]["rules"]
    assert (rules["contract"], rules["trump_duty"]) == ("ledig", "rotterdam")
    status, out, err = run(capsys, "analyse", str(EXAMPLE), "--rules", '{"ledig_bonus": 80}',
                           "--json", "--workers", "1")
    assert json.loads(out)["actual"]["scores"] == {"NS": 0, "EW": 80}


def test_house_rules_naming_ledig_trump_none_take_a_chosen_trump_away(capsys, tmp_path):
    chosen = replace(GameRecord.load(EXAMPLE), rules=Rules(contract="ledig", ledig_trump="chosen"),
                     trump=Suit.H, played=[])      # the example's play was without trump
    path = tmp_path / "chosen.json"
    path.write_text(json.dumps(chosen.to_dict()))
    for rules, trump in (("rotterdam", "H"), ('{"ledig_trump": "none"}', None)):
        assert main(["analyse", str(path), "--rules", rules, "--json"]) == 0
        record = json.loads(capsys.readouterr().out)["record"]
        assert record.get("trump") == trump and record["rules"]["contract"] == "ledig"


def test_random_ledig_records_round_trip_and_fit_the_schema():
    from hypothesis import given, settings, strategies as st
    from jsonschema import Draft202012Validator
    validator = Draft202012Validator(GameRecord.json_schema())

    @settings(max_examples=40, deadline=None)
    @given(st.integers(0, 10**6), st.sampled_from(list(Seat)), st.sampled_from(list(Seat)),
           st.sampled_from(["none", "chosen"]), st.sampled_from("CDHS"), st.integers(0, 32),
           st.randoms(use_true_random=False))
    def check(seed, bidder, leader, ledig_trump, suit, cards, rng):
        rules = Rules(contract="ledig", ledig_trump=ledig_trump)
        trump = suit if ledig_trump == "chosen" else None
        game = Game(Deal.random(seed), trump, leader, rules=rules, bidder=bidder)
        while len(game.played) < cards:
            game.play(rng.choice(game.legal_cards()))
        record = GameRecord(game.deal, trump, leader, rules=rules, played=tuple(game.played),
                            bidder=bidder)
        data = json.loads(json.dumps(record.to_dict()))
        assert list(validator.iter_errors(data)) == []
        assert GameRecord.from_dict(data) == record
        if cards == 32:
            assert record.scores() == game.final_scores()
            # who played what shows the deal, winners of a trump-less round included
            assert GameRecord.from_dict({k: v for k, v in data.items() if k != "deal"}) == record
    check()


def test_a_ledig_summary_says_which_way_each_teams_tricks_went():
    analysis = analyse_play(GameRecord.load(ROOT / "examples" / "ledig.json"), workers=1)
    lines = analysis.summary().splitlines()
    own, other = analysis.record.playing.name, analysis.record.playing.other.name
    assert lines[1].startswith(f"{own} gave the bidder ")
    # The defenders' cards cost nothing here: said so, not as "0 tricks fewer".
    assert lines[2] == f"{other}'s cards cost nothing against best play."
    assert not any(" lost " in line for line in lines)


def test_house_rules_over_a_ledig_record_keep_its_chosen_trump_and_bonus(capsys, tmp_path,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)     # whatever the command writes lands in a scratch folder
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


def test_analysing_trump_and_ledig_rounds_together_keeps_points_and_tricks_apart(capsys,
                                                                                 tmp_path,
                                                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
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


def test_a_team_whose_cards_cost_nothing_is_said_to_lose_nothing():
    # In examples/ledig.json only NS's ♦J cost a trick.
    lines = analyse_play(GameRecord.load(EXAMPLE), workers=1).summary().splitlines()
    assert "EW's cards cost nothing against best play." in lines
    assert not any("no trick fewer" in line or "0 tricks" in line for line in lines)
