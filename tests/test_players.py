"""Tables of three and of two (docs/rules.md): the double-dummy values are the four-player
values, each player's worlds keep every hand he sees, each player gets his own score, and
records, reports and the command line know who sits where."""
import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SLOW, example_counts, positions, rules_strategy
from solver import (Deal, Game, GameRecord, RecordError, Rules, RulesError, Seat, Solver, Team,
                    analyse_bidding, analyse_play, analyse_view, sample_worlds, solve,
                    solve_moves)
from solver.cli import main
from solver.model.players import seen_seats, table_players
from solver.model.scoring import OBJECTIVES

ROOT = Path(__file__).resolve().parents[1]
DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
EXAMPLE = GameRecord.load(ROOT / "examples" / "game.json")
DUMMY_OPEN = ("after_lead", "always", "never")


def at_table(game, players, dummy_open="after_lead", which=0):
    """The same position at a table of `players`: under three, the dummy is seat `which` (0
    or 1) of the playing team."""
    rules = replace(game.rules, players=players, dummy_open=dummy_open)
    dummy = game.playing.seats[which] if players == 3 else None
    table = Game(game.deal, game.trump, game.leader, game.playing, rules, dummy=dummy)
    table.replay(game.played)
    return table


# -- double dummy: the same values at every table ------------------------------------------------

@pytest.mark.parametrize("examples", example_counts(25))
def test_three_and_two_player_values_are_the_four_player_values(examples):
    @settings(max_examples=examples, **SLOW)
    @given(positions(rules=rules_strategy, tricks_left=st.integers(1, 5)),
           st.sampled_from(OBJECTIVES), st.integers(0, 1), st.sampled_from(DUMMY_OPEN))
    def check(game, objective, which, dummy_open):
        four = solve(game.deal, game.trump, game.leader, game.playing, game.rules, game.played,
                     objective)
        four_moves = solve_moves(game.deal, game.trump, game.leader, game.playing, game.rules,
                                 game.played, objective)
        for table in (at_table(game, 3, dummy_open, which), at_table(game, 2)):
            args = (table.deal, table.trump, table.leader, table.playing, table.rules,
                    table.played, objective)
            result = solve(*args, dummy=table.dummy)
            assert (result.value, result.totals) == (four.value, four.totals)
            assert solve_moves(*args, dummy=table.dummy) == four_moves
            assert Solver(table.rules).move_values(table, objective) == four_moves
    check()


@pytest.mark.parametrize("seed", range(3))
def test_a_whole_round_has_the_four_player_value_at_every_table(seed):
    deal = Deal.random(seed)
    for objective in OBJECTIVES:
        four = Solver().solve(deal, "H", "E", "NS", objective=objective)
        three = Solver(Rules(players=3)).solve(deal, "H", "E", "NS", objective=objective,
                                               dummy="S")
        two = Solver(Rules(players=2)).solve(deal, "H", "E", "NS", objective=objective)
        assert three.value == two.value == four.value


def test_a_table_of_three_needs_its_dummy_on_the_playing_team():
    with pytest.raises(RulesError, match="needs the dummy seat"):
        solve(DEAL, "S", "S", "EW", Rules(players=3))
    with pytest.raises(RulesError, match="dummy=N is in team NS"):
        solve(DEAL, "S", "S", "EW", Rules(players=3), dummy="N")
    with pytest.raises(RulesError, match="for three-player rounds"):
        solve(DEAL, "S", "S", "EW", Rules(players=2), dummy="E")
    assert Game(DEAL, "S", "S", rules=Rules(players=3), dummy="E").playing == Team.EW


# -- what each player sees -------------------------------------------------------------------------

def test_who_sees_which_hands():
    three = Rules(players=3)
    assert seen_seats(three, Seat.S, 0, Seat.N) == {Seat.S, Seat.N}      # the chooser
    assert seen_seats(three, Seat.N, 0, Seat.N) == {Seat.S, Seat.N}      # the dummy: his view
    assert seen_seats(three, Seat.E, 0, Seat.N) == {Seat.E}              # before the lead
    assert seen_seats(three, Seat.E, 1, Seat.N) == {Seat.E, Seat.N}
    assert seen_seats(Rules(players=3, dummy_open="always"), Seat.W, 0, Seat.N) == {Seat.W, Seat.N}
    assert seen_seats(Rules(players=3, dummy_open="never"), Seat.W, 31, Seat.N) == {Seat.W}
    assert seen_seats(Rules(players=2), Seat.E, 0) == {Seat.E, Seat.W}
    assert seen_seats(Rules(), Seat.E, 5) == {Seat.E}


@settings(max_examples=30, **SLOW)
@given(positions(tricks_left=st.integers(1, 8)), st.sampled_from(list(Seat)),
       st.sampled_from([(3, o) for o in DUMMY_OPEN] + [(2, "after_lead")]), st.integers(0, 1),
       st.integers(0, 99))
def test_every_world_keeps_every_hand_the_player_sees(game, seat, table, which, seed):
    game = at_table(game, table[0], table[1], which)
    seen = seen_seats(game.rules, seat, len(game.played), game.dummy)
    for world in sample_worlds(game, seat, 10, seed):
        assert all(world[s] == game.deal[s] for s in seen)
        copy = Game(world, game.trump, game.leader, game.playing, game.rules, dummy=game.dummy)
        copy.replay(game.played)


def test_the_defenders_see_the_dummy_from_the_first_card():
    game = Game(DEAL, "S", "S", rules=Rules(players=3), dummy="E")     # W chooses, S leads
    before = sample_worlds(game, "N", 50, seed=1)
    assert any(w["E"] != DEAL["E"] for w in before)                     # not yet
    assert all(w["E"] == DEAL["E"] and w["W"] == DEAL["W"]              # the chooser, from the start
               for w in sample_worlds(game, "W", 20, seed=1) + sample_worlds(game, "E", 20, seed=1))
    game.play("SK")
    assert all(w["E"] == DEAL["E"] for w in sample_worlds(game, "N", 20, seed=1))
    never = Game(DEAL, "S", "S", rules=Rules(players=3, dummy_open="never"), dummy="E")
    never.play("SK")
    assert any(w["E"] != DEAL["E"] for w in sample_worlds(never, "N", 50, seed=1))


# -- the analyses use that view --------------------------------------------------------------------

def spy_on_worlds(monkeypatch, module):
    """Record (players, dummy, seat, cards played) of every sample_worlds call of `module`."""
    calls = []
    real = module.sample_worlds

    def spy(game, seat, *args, **kwargs):
        calls.append((game.rules.players, game.dummy, Seat.parse(seat), len(game.played)))
        return real(game, seat, *args, **kwargs)
    monkeypatch.setattr(module, "sample_worlds", spy)
    return calls


def test_a_view_of_the_dummys_turn_is_the_choosers(monkeypatch):
    game = Game(DEAL, "S", "S", rules=Rules(players=3), dummy="E")
    game.replay("SK S9 SA")                                             # E, the dummy, to play
    view = analyse_view(game, "W", worlds=6, seed=3, workers=1)         # W plays E's cards
    assert view.seat == Seat.E
    assert all(w["E"] == DEAL["E"] and w["W"] == DEAL["W"] for w in view.worlds)
    with pytest.raises(Exception, match="seat N is not to play"):
        analyse_view(game, "N", worlds=2)


def test_play_analysis_with_worlds_passes_the_table_through(monkeypatch):
    import solver.analysis.view as view_module
    calls = spy_on_worlds(monkeypatch, view_module)
    record = replace(EXAMPLE, rules=Rules(players=3), dummy=Seat.W, played=EXAMPLE.played[:6])
    analysis = analyse_play(record, worlds=2, seed=1, workers=1)
    assert len(analysis.steps) == 6 and len(calls) == 6
    assert all(players == 3 and dummy == Seat.W for players, dummy, _, _ in calls)


def test_bids_at_a_table_of_two_are_judged_from_both_hands_held():
    rules = Rules(players=2)
    bids = analyse_bidding(DEAL, "W", rules, procedure="free", worlds=4, seed=4, workers=1)
    from solver.model.streams import derive
    worlds = sample_worlds(Game(DEAL, "C", "N", "NS", rules), "N", 4, seed=derive(4, Seat.N))
    assert all(w["S"] == DEAL["S"] for w in worlds)
    option = bids.option("N", "H")
    solver = Solver(rules)
    values = [solver.value(Game(w, "H", option.leader, "NS", rules)) for w in worlds]
    assert option.sd_value == pytest.approx(sum(values) / 4)


def test_bids_at_a_table_of_three_are_judged_from_the_own_hand():
    bids = analyse_bidding(DEAL, "W", Rules(players=3), procedure="free", worlds=2, seed=4,
                           workers=1)
    four = analyse_bidding(DEAL, "W", Rules(), procedure="free", worlds=2, seed=4, workers=1)
    assert [o.value for o in bids.options] == [o.value for o in four.options]
    assert [o.sd_value for o in bids.options] == [o.sd_value for o in four.options]


# -- who scores what, and records ------------------------------------------------------------------

THREE = replace(EXAMPLE, rules=Rules(players=3), dummy=Seat.E,
                players={Seat.W: "Anna", Seat.N: "Bob", Seat.S: "Carla"})


def test_each_player_of_three_gets_his_own_score():
    analysis = analyse_play(THREE, workers=1)
    scores = {p.label: score for p, score in analysis.player_scores()}
    assert scores == {"Anna (W, chooser, with dummy E)": 179, "Bob (N, defender)": 43,
                      "Carla (S, defender)": 43}
    assert "Per player: Anna (W, chooser, with dummy E) 179" in analysis.summary()
    # The mistakes name who played each card too: the dummy's hand is Anna's to play.
    assert "trick 1 S (Carla) SK (-20" in analysis.summary()
    assert "trick 2 E (Anna) HJ (-36" in analysis.summary()
    assert [(p.label, score) for p, score in THREE.player_scores()] == \
        [(p.label, score) for p, score in analysis.player_scores()]
    data = analysis.to_dict()["players"]
    assert data[0] == {"seats": ["W", "E"], "role": "chooser", "name": "Anna", "score": 179}


def test_play_analysis_takes_a_deal_with_its_dummy():
    deal_form = analyse_play(THREE.deal, "S", "S", "EW", THREE.played[:8], Rules(players=3),
                             workers=1, dummy="E")
    assert deal_form.record.dummy == Seat.E
    assert [s.loss for s in deal_form.steps] == [s.loss for s in analyse_play(THREE).steps[:8]]
    with pytest.raises(RecordError, match="dummy='E' is for the deal form"):
        analyse_play(THREE, dummy="E")


def test_each_player_of_two_gets_his_teams_score():
    record = replace(EXAMPLE, rules=Rules(players=2), players={"N": "Bob", "E": "Anna"})
    analysis = analyse_play(record, workers=1)
    assert [(p.name, p.seats, s) for p, s in analysis.player_scores()] == [
        ("Anna", (Seat.E, Seat.W), 179), ("Bob", (Seat.N, Seat.S), 43)]
    assert len(table_players(Rules(), Team.NS)) == 4


def test_a_record_names_its_dummy_and_players_and_reads_them_back():
    data = THREE.to_dict()
    assert data["dummy"] == "E" and data["players"] == {"N": "Bob", "S": "Carla", "W": "Anna"}
    assert GameRecord.from_dict(json.loads(json.dumps(data))) == THREE
    old = EXAMPLE.to_dict()                       # format 1, without the new fields
    assert "dummy" not in old and "players" not in old and GameRecord.from_dict(old) == EXAMPLE


@pytest.mark.parametrize("change, message", [
    ({"dummy": None}, "needs the dummy seat"),
    ({"dummy": "N"}, "dummy=N is in team NS"),
    ({"players": {"N": ""}}, "seat N: a player's name is text"),
    ({"players": ["Anna"]}, "must map seats to the names"),
    ({"players": {"X": "Anna"}}, "players"),
])
def test_a_record_with_a_bad_dummy_or_names_is_refused(change, message):
    data = {**THREE.to_dict(), **change}
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


def test_a_record_of_two_gives_one_name_a_team():
    data = {**EXAMPLE.to_dict(), "rules": {"players": 2}, "players": {"N": "Bob", "S": "Eve"}}
    with pytest.raises(RecordError, match="one player holds NS, but its seats name Bob and Eve"):
        GameRecord.from_dict(data)
    data = {**EXAMPLE.to_dict(), "dummy": "E"}
    with pytest.raises(RecordError, match="for three-player rounds"):
        GameRecord.from_dict(data)


# -- the command line ----------------------------------------------------------------------------

THREE_RULES = '{"players": 3}'


def test_solve_and_view_take_the_dummy(capsys):
    position = [DEAL.to_pbn(), "--trump", "S", "--leader", "S", "--playing", "EW",
                "--rules", THREE_RULES, "--dummy", "E", "--json"]
    assert main(["solve"] + position) == 0
    assert json.loads(capsys.readouterr().out)["value"] == solve(DEAL, "S", "S", "EW").value
    assert main(["view"] + position + ["--played", "SK S9 SA", "--worlds", "3", "--seat", "W"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["seat"] == "E" and all(Deal.from_pbn(w)["W"] == DEAL["W"] for w in view["worlds"])


def test_a_bad_dummy_on_the_command_line_is_named(capsys):
    position = [DEAL.to_pbn(), "--trump", "S", "--leader", "S", "--playing", "EW",
                "--rules", THREE_RULES]
    assert main(["solve"] + position + ["--dummy", "X"]) == 2
    assert "argument --dummy" in capsys.readouterr().err
    assert main(["solve"] + position + ["--dummy", "N"]) != 0
    assert "dummy=N is in team NS" in capsys.readouterr().err
    assert main(["solve"] + position) != 0
    assert "needs --dummy" in capsys.readouterr().err


def test_analyse_takes_the_records_dummy_or_the_command_lines(capsys, tmp_path):
    path = tmp_path / "three.json"
    path.write_text(json.dumps(THREE.to_dict()))
    assert main(["analyse", str(path)]) == 0
    assert "Per player: Anna (W, chooser, with dummy E) 179" in capsys.readouterr().out
    assert main(["analyse", str(ROOT / "examples" / "game.json"), "--rules", THREE_RULES,
                 "--dummy", "W"]) == 0
    assert "Per player: E (chooser, with dummy W) 179" in capsys.readouterr().out
    assert main(["table", DEAL.to_pbn(), "--rules", THREE_RULES, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["values"] == solve_table_values()


def test_house_rules_keep_the_records_table_unless_they_name_it(capsys, tmp_path):
    path = tmp_path / "three.json"
    path.write_text(json.dumps(THREE.to_dict()))
    assert main(["analyse", str(path), "--rules", "rotterdam", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["record"]
    assert (record["rules"]["players"], record["rules"]["trump_duty"]) == (3, "rotterdam")
    assert record["dummy"] == "E"
    assert main(["analyse", str(path), "--rules", '{"players": 4}', "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["record"]
    assert record["rules"]["players"] == 4 and record.get("dummy") is None


def test_house_rules_keep_the_records_kraak(capsys, tmp_path):
    path = tmp_path / "kraak.json"
    path.write_text(json.dumps(replace(EXAMPLE, rules=Rules(multiplier=2)).to_dict()))
    for rules, multiplier in (("rotterdam", 2), ('{"multiplier": 4}', 4)):
        assert main(["analyse", str(path), "--rules", rules, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["record"]["rules"]["multiplier"] == multiplier


def solve_table_values():
    from solver import solve_table
    return solve_table(DEAL).to_dict()["values"]


# -- the report ------------------------------------------------------------------------------------

def report_page(record):
    from solver import solve_table
    from solver.html import render
    return render(analyse_play(record, workers=1), solve_table(record.deal, record.rules),
                  Solver(record.rules).value(record.game(), "score"))


def report_data(page):
    import re
    return json.loads(re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1))


def test_the_report_of_three_marks_the_dummy_and_scores_each_player():
    page = report_page(THREE)
    assert '<div class="hand E dummy" data-dummy="1">' in page
    assert "dummy, played by Anna" in page
    assert "Three players: Anna (W) plays W and the dummy, E (the silent partner)" in page
    assert "Per player: Anna (W, chooser, with dummy E) 179, Bob (N, defender) 43" in page
    data = report_data(page)
    assert (data["dummy"], data["dummy_open_from"]) == ("E", 1)
    assert "E to play (the dummy, played by Anna; values for EW)" in data["steps"][3]["note"]
    assert "W to play (Anna; values for EW)" in data["steps"][1]["note"]


def test_the_report_of_two_shows_two_players():
    record = replace(EXAMPLE, rules=Rules(players=2), players={"N": "Bob", "W": "Anna"})
    page = report_page(record)
    assert "Two players: Anna holds E and W; Bob holds N and S." in page
    assert "Bob, NS" in page and "dummy" not in report_data(page)["labels"]["N"]
    assert report_data(page)["dummy"] is None


def test_the_ledig_report_of_three_scores_each_player():
    record = GameRecord.load(Path(__file__).resolve().parents[1] / "examples" / "ledig.json")
    three = replace(record, rules=replace(record.rules, players=3), dummy=Seat.S)
    page = report_page(three)
    assert "Per player: N (chooser, with dummy S) 0, E (defender) 50, W (defender) 50." in page


def test_the_ledig_summary_of_three_scores_each_player():
    record = GameRecord.load(Path(__file__).resolve().parents[1] / "examples" / "ledig.json")
    three = replace(record, rules=replace(record.rules, players=3), dummy=Seat.S)
    assert ("Per player: N (chooser, with dummy S) 0, E (defender) 50, W (defender) 50."
            in analyse_play(three).summary())


def test_a_four_player_report_is_as_before():
    page = report_page(EXAMPLE)
    assert "data-players" not in page and "Per player" not in page and 'class="who"' not in page


def test_the_browser_shows_the_dummy_face_down_until_the_defenders_see_it(browser, tmp_path):
    from selenium.webdriver.common.by import By
    driver = browser
    for dummy_open, closed_at in (("after_lead", [0]), ("always", []),
                                  ("never", [0, 1, 2])):
        record = replace(THREE, rules=Rules(players=3, dummy_open=dummy_open))
        path = tmp_path / f"three-{dummy_open}.html"
        path.write_text(report_page(record), encoding="utf-8")
        driver.get(path.as_uri())
        for shown in range(5):
            hand = driver.find_element(By.CSS_SELECTOR, "#replay .hand.E")
            backs = hand.find_elements(By.CSS_SELECTOR, ".card.back")
            faces = hand.find_elements(By.CSS_SELECTOR, "[data-card]")
            if shown in closed_at:
                assert backs and not faces, (dummy_open, shown)
            else:
                assert faces and not backs, (dummy_open, shown)
            assert "dummy" in hand.text
            driver.find_element(By.ID, "next").click()
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


# -- labels ----------------------------------------------------------------------------------------

def test_labels_at_a_table_of_three_name_the_dummy_and_view_from_the_players_worlds(tmp_path):
    from solver.labels import LabelConfig, deal_rows
    config = LabelConfig(deals=4, positions="root", rules=Rules(players=3), worlds=3,
                         format="npz")
    solver = Solver(config.rules)
    for deal_id in range(4):
        row = deal_rows(config, deal_id, solver)[0]
        playing = Team(row["playing"])
        assert Seat(row["dummy"]).team == playing
        four = deal_rows(replace(config, rules=Rules(), worlds=0), deal_id, Solver())[0]
        assert (row["values"] == four["values"]).all()        # double dummy: the same
    fixed = LabelConfig(deals=2, positions="root", rules=Rules(players=3), dummy="W")
    assert all(deal_rows(fixed, i, solver)[0]["playing"] == Team.EW for i in range(2))


def test_labels_refuse_a_dummy_the_table_has_no_place_for():
    from solver.errors import LabelsError
    from solver.labels import LabelConfig
    with pytest.raises(LabelsError, match="dummy=N is for a table of three"):
        LabelConfig(dummy="N")
    with pytest.raises(LabelsError, match="dummy=N is in team NS, but the playing team is fixed"):
        LabelConfig(rules=Rules(players=3), dummy="N", playing="EW")
    old = {k: v for k, v in LabelConfig().to_dict().items() if k != "dummy"}
    assert LabelConfig.from_dict(old) == LabelConfig()         # a folder written before dummy
