"""The `klaverjas` command: output, --json round trips, and one-line errors with status 2."""
import argparse
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver as solver_package
from solver import (BidAnalysis, DDTable, Deal, PlayAnalysis, Rules, SolveResult, solve,
                    solve_moves)
from solver.cli import main

from conftest import example_counts

DEAL = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"
EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "game.json")


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch):
    """Whatever a command writes by default (report.html, labels) lands in a scratch folder."""
    monkeypatch.chdir(tmp_path)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_prints_value_totals_and_line(capsys):
    status, out, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S", "--playing", "EW")
    assert status == 0
    assert "points for EW: -2" in out and "totals NS 102, EW 100" in out and "♥A" in out


def test_solve_json_round_trips_and_matches_the_api(capsys):
    _, out, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S", "--playing", "EW",
                    "--played", "HA HT", "--json")
    result = SolveResult.from_dict(json.loads(out))
    expected = solve(Deal.from_pbn(DEAL), "S", "S", "EW", played=["HA", "HT"])
    assert result.value == expected.value and result.line == expected.line


def test_solve_moves_json(capsys):
    _, out, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S", "--playing", "EW",
                    "--moves", "--json")
    moves = json.loads(out)["moves"]
    expected = solve_moves(Deal.from_pbn(DEAL), "S", "S", "EW")
    assert moves == {str(c): v for c, v in expected.items()}


def test_make_objective(capsys):
    _, out, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S", "--playing", "EW",
                    "--objective", "make")
    assert "make for EW: False" in out


def test_table_json_round_trips(capsys):
    _, out, _ = run(capsys, "table", DEAL, "--json")
    table = DDTable.from_dict(json.loads(out))
    assert table.value("S", "S", "EW") == -2


LEDIG = str(Path(__file__).resolve().parents[1] / "examples" / "ledig.json")
RECORD_CARDS = ("SK S9 SA SJ HJ HA HT H9 C9 CJ C7 CT ST SQ S8 S7 D8 D7 DJ D9 CQ C8 DT DA CK HQ DQ "
                "H7 CA HK DK H8").split()


def test_table_of_a_record_is_the_table_of_its_deal_and_rules(capsys):
    _, of_record, _ = run(capsys, "table", EXAMPLE, "--json")
    _, of_deal, _ = run(capsys, "table", DEAL, "--rules", "amsterdam", "--json")
    assert json.loads(of_record) == json.loads(of_deal)
    _, of_record, _ = run(capsys, "table", EXAMPLE, "--rules", "rotterdam", "--json")
    _, of_deal, _ = run(capsys, "table", DEAL, "--rules", "rotterdam", "--json")
    assert json.loads(of_record) == json.loads(of_deal)


def test_table_of_a_three_player_record_needs_no_dummy(tmp_path, capsys):
    three = tmp_path / "three.json"
    three.write_text(json.dumps({"deal": DEAL, "dealer": "E", "trump": "S", "playing": "EW",
                                 "rules": {"players": 3}}))
    status, of_record, _ = run(capsys, "table", str(three), "--json")
    _, of_deal, _ = run(capsys, "table", DEAL, "--rules", '{"players": 3}', "--json")
    assert status == 0 and json.loads(of_record) == json.loads(of_deal)
    status, _, err = run(capsys, "solve", str(three))
    assert status == 2 and "names no dummy: give the dummy's seat with --dummy" in err


@pytest.mark.parametrize("after", [0, 1, 12, 13, 31])
def test_solve_of_a_record_is_its_round_after_its_first_cards(capsys, after):
    # examples/game.json: dealer E, so S leads; trump S, EW plays.
    _, of_record, _ = run(capsys, "solve", EXAMPLE, "--after", str(after), "--moves", "--json")
    _, of_deal, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S", "--playing",
                        "EW", "--played", " ".join(RECORD_CARDS[:after]), "--moves", "--json")
    assert json.loads(of_record) == json.loads(of_deal)


def test_solve_and_view_of_a_record_take_its_start_or_cards_given(capsys):
    _, start, _ = run(capsys, "solve", EXAMPLE, "--json")
    assert json.loads(start)["value"] == -2
    _, played, _ = run(capsys, "solve", EXAMPLE, "--played", "HA HT", "--json")
    _, of_deal, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S", "--playing",
                        "EW", "--played", "HA HT", "--json")
    assert json.loads(played) == json.loads(of_deal)
    _, view, _ = run(capsys, "view", EXAMPLE, "--after", "4", "--worlds", "4", "--json")
    _, of_deal, _ = run(capsys, "view", DEAL, "--trump", "S", "--leader", "S", "--playing",
                        "EW", "--played", " ".join(RECORD_CARDS[:4]), "--worlds", "4", "--json")
    assert json.loads(view) == json.loads(of_deal)


def test_a_record_in_dutch_notation_is_read_in_it(tmp_path, capsys):
    dutch = tmp_path / "nl.json"
    dutch.write_text(json.dumps({"deal": "N:A7.HV9.9.87 B10.B.HV108.10 HV.A87.A7.9 98.10.B.AHVB",
                                 "dealer": "E", "trump": "S", "playing": "EW", "notation": "nl",
                                 "played": "SH S9 SA SB"}))
    _, of_record, _ = run(capsys, "solve", str(dutch), "--after", "2", "--moves", "--json")
    _, of_deal, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S", "--playing",
                        "EW", "--played", "SK S9", "--moves", "--json")
    assert json.loads(of_record) == json.loads(of_deal)


def test_a_record_s_trump_and_rules_give_way_to_those_given(capsys):
    _, of_record, _ = run(capsys, "solve", EXAMPLE, "--trump", "H", "--rules", "rotterdam",
                          "--moves", "--json")
    _, of_deal, _ = run(capsys, "solve", DEAL, "--trump", "H", "--leader", "S", "--playing",
                        "EW", "--rules", "rotterdam", "--moves", "--json")
    assert json.loads(of_record) == json.loads(of_deal)


def test_solve_of_a_ledig_record_is_its_ledig_round(capsys):
    record = json.loads(Path(LEDIG).read_text())
    status, of_record, _ = run(capsys, "solve", LEDIG, "--after", "8", "--moves", "--json")
    _, of_deal, _ = run(capsys, "solve", record["deal"], "--contract", "ledig", "--bidder", "N",
                        "--leader", "E", "--played", " ".join(record["played"].split()[:8]),
                        "--moves", "--json")
    assert status == 0 and json.loads(of_record) == json.loads(of_deal)


def test_a_record_judged_as_another_contract_takes_only_its_first_cards(capsys):
    # The record's later cards need not fit the round as changed: only those of --after count.
    _, of_record, _ = run(capsys, "solve", EXAMPLE, "--contract", "ledig", "--bidder", "N",
                          "--after", "4", "--moves", "--json")
    _, of_deal, _ = run(capsys, "solve", DEAL, "--contract", "ledig", "--bidder", "N",
                        "--leader", "S", "--played", " ".join(RECORD_CARDS[:4]), "--moves",
                        "--json")
    assert json.loads(of_record) == json.loads(of_deal)
    record = json.loads(Path(LEDIG).read_text())
    status, of_record, _ = run(capsys, "solve", LEDIG, "--contract", "trump", "--trump", "S",
                               "--playing", "NS", "--json")
    _, of_deal, _ = run(capsys, "solve", record["deal"], "--trump", "S", "--playing", "NS",
                        "--leader", "E", "--json")
    assert status == 0 and json.loads(of_record) == json.loads(of_deal)


def test_a_ledig_record_s_table_under_other_house_rules_stays_ledig(capsys):
    record = json.loads(Path(LEDIG).read_text())
    _, of_record, _ = run(capsys, "table", LEDIG, "--rules", "rotterdam", "--json")
    _, of_deal, _ = run(capsys, "table", record["deal"], "--rules", "rotterdam", "--contract",
                        "ledig", "--json")
    assert json.loads(of_record) == json.loads(of_deal)


@pytest.mark.parametrize("argv, message", [
    (["solve", DEAL, "--leader", "S", "--trump", "S", "--playing", "EW", "--after", "3"],
     "argument --after: takes the first cards of a game record; with a deal give the cards "
     "played with --played"),
    (["solve", EXAMPLE, "--after", "3", "--played", "SK"],
     "--after and --played both say which cards were played: give one"),
    (["view", EXAMPLE, "--after", "33"], "--after must be a whole number from 0 to 32"),
    (["table", DEAL, "--round", "2"], "argument --round: picks a round from a file of game "
                                      "records, one a line"),
    (["solve", DEAL, "--trump", "S", "--playing", "EW"],
     "the following arguments are required: --leader"),
    (["solve", EXAMPLE, "--played", "HA SJ"], "trick 1, seat W"),
    (["solve", LEDIG, "--contract", "trump"], "this record is a ledig round without trump"),
    (["solve", LEDIG, "--trump", "H"], "--trump H: a ledig round under ledig_trump none has no "
                                       "trump"),
    (["solve", LEDIG, "--playing", "EW"], "--playing EW: in ledig the bidder's team plays, and "
                                          "EW is not the team of the bidder, N"),
    (["solve", EXAMPLE, "--rules", ""], "--rules '': not amsterdam, rotterdam"),
    (["solve", json.dumps({"deal": DEAL, "dealer": "E", "trump": "S", "playing": "EW",
                           "played": "SK S9 SA SJ HJ HA HT H9 DA CA D9 DK"}), "--after", "12"],
     "argument --after 12: the record's own play breaks a rule by then, where no search can "
     "start: trick 3, seat W: CA breaks the duty to follow suit"),
])
def test_records_where_a_deal_goes_refuse_in_one_line(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_a_record_short_of_the_cards_asked_for_says_how_many_it_has(tmp_path, capsys):
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"deal": DEAL, "dealer": "E", "trump": "S", "playing": "EW",
                                 "played": "SK S9"}))
    status, _, err = run(capsys, "solve", str(short), "--after", "3")
    assert status == 2 and "the record has 2 cards played, not 3" in err


def test_analyse_reads_a_record_file(capsys):
    status, out, _ = run(capsys, "analyse", EXAMPLE)
    assert status == 0 and "NS lost 174 points" in out


def test_analyse_json_round_trips(capsys):
    _, out, _ = run(capsys, "analyse", EXAMPLE, "--json")
    assert PlayAnalysis.from_dict(json.loads(out)).steps[-1].number == 32


def test_bid_shows_the_verdict(capsys):
    _, out, _ = run(capsys, "bid", DEAL, "--dealer", "W", "--turned", "S", "--bid", "N S")
    assert "N chose S: makeable" in out


def test_bid_json_round_trips(capsys):
    _, out, _ = run(capsys, "bid", DEAL, "--dealer", "W", "--procedure", "utrechts", "--json")
    assert BidAnalysis.from_dict(json.loads(out)).procedure == "utrechts"


def test_deal_from_standard_input(monkeypatch, capsys):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(DEAL + "\n"))
    status, out, _ = run(capsys, "table", "-")
    assert status == 0 and "♠" in out


def test_rules_from_a_json_file(tmp_path, capsys):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"trump_duty": "rotterdam", "roem": "none"}))
    status, out, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S",
                         "--playing", "EW", "--rules", str(rules), "--json")
    assert status == 0 and "value" in json.loads(out)


@pytest.mark.parametrize("argv, message", [
    (["solve", "N:A7", "--trump", "S", "--leader", "S", "--playing", "EW"], "4 hands"),
    (["solve", DEAL, "--trump", "S", "--leader", "X", "--playing", "EW"], "unknown seat 'X'"),
    (["solve", DEAL, "--trump", "S", "--leader", "S", "--playing", "EW", "--played", "HA SJ"],
     "trick 1, seat W"),
    (["solve", DEAL, "--trump", "S"], "required"),
    (["solve", DEAL, "--trump", "S", "--leader", "S", "--playing", "EW", "--rules", "utrecht"],
     "not amsterdam, rotterdam, inline JSON or a readable JSON file"),
    (["analyse", "missing.json"], "cannot read missing.json"),
    (["bid", DEAL, "--dealer", "W"], "--procedure draaikaart (the default) needs --turned"),
])
def test_errors_are_one_line_with_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_wrong_json_record_is_an_error(tmp_path, capsys):
    bad = tmp_path / "game.json"
    bad.write_text('{"deal": "N:..."')
    status, _, err = run(capsys, "analyse", str(bad))
    assert status == 2 and "not valid JSON" in err


def test_installed_command_and_help_show_an_example():
    result = subprocess.run(["klaverjas", "solve", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "example:" in result.stdout


# -- well-behaved at the command line --------------------------------------------------------------

def test_version(capsys):
    import solver
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"klaverjas {solver.__version__}"
    assert solver.__version__.count(".") == 2


def test_error_prefix_is_not_doubled(capsys):
    status, _, err = run(capsys, "solve", DEAL, "--trump", "S")
    assert status == 2 and err.startswith("klaverjas: error: ") and err.count("klaverjas:") == 1


def test_every_option_has_help_with_its_default():
    from solver.cli.parser import build_parser
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction) or not action.option_strings:
                continue
            assert action.help, f"{name} {action.option_strings[0]} has no help"
            assert "default" in action.help or action.required, \
                f"{name} {action.option_strings[0]}: help does not give the default"


@pytest.mark.parametrize("argv, message", [
    (["bid", DEAL, "--dealer", "W"], "draaikaart (the default) needs --turned"),
    (["solve", DEAL, "--trump", "X", "--leader", "S", "--playing", "EW"],
     "argument --trump: unknown suit 'X'"),
    (["bid", DEAL, "--dealer", "W", "--procedure", "utrechts", "--bid", "E H"],
     "seat E may not choose a trump"),
    (["bid", DEAL, "--dealer", "W", "--procedure", "xx"],
     "argument --procedure: invalid choice: 'xx'"),
    (["bid", DEAL, "--dealer", "W", "--turned", "H", "--on-all-pass", "zz"],
     "argument --on-all-pass: invalid choice: 'zz'"),
    (["bid", DEAL, "--dealer", "W", "--turned", "S", "--bid", "N"],
     "argument --bid: 'N': give the seat and the trump"),
    (["solve", DEAL.removeprefix("N:"), "--trump", "S", "--leader", "S", "--playing", "EW"],
     "must start with the first seat and a colon"),
    (["solve", DEAL, "--trump", "S", "--leader", "S", "--playing", "EW", "--played", "HA XX"],
     "argument --played: not a card: 'XX'"),
    (["solve", DEAL, "--trump", "S", "--leader", "S", "--playing", "EW",
      "--rules", '{"pit_bonus": 40000}'], "pit_bonus=40000 must be a whole number from 0 to 1000"),
    (["analyse", json.dumps({"deal": DEAL, "dealer": "E", "trump": "S", "playing": "EW",
                             "played": "SK SK"})], "W does not hold SK"),
])
def test_messages_speak_the_command_line_language(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_inline_json_rules(capsys):
    status, out, _ = run(capsys, "solve", DEAL, "--trump", "S", "--leader", "S", "--playing",
                         "EW", "--rules", '{"roem": "none"}', "--json")
    assert status == 0 and json.loads(out)["value"] == solve(
        Deal.from_pbn(DEAL), "S", "S", "EW", rules=Rules(roem="none")).value


def _wait_until_reading_standard_input(proc, most_seconds=60):
    """Returns once `proc` is blocked in read(0, ...), as Linux's /proc/<pid>/syscall shows
    (the syscall number 0 is read, its first argument the file): the command is then running,
    past its start-up. Skips where that file cannot be read."""
    path = f"/proc/{proc.pid}/syscall"
    give_up = time.monotonic() + most_seconds
    while time.monotonic() < give_up:
        try:
            with open(path) as f:
                fields = f.read().split()
        except OSError:
            pytest.skip(f"{path} cannot be read here: nothing tells when the command reads")
        if fields[:2] == ["0", "0x0"]:
            return
        time.sleep(0.01)
    raise AssertionError(f"the command never read its standard input (last: {fields[:2]})")


def test_ctrl_c_prints_one_line_and_exits_130():
    # The command waits on standard input, so the interrupt surely comes while it runs.
    proc = subprocess.Popen(["klaverjas", "table", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_until_reading_standard_input(proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err == "klaverjas: interrupted\n" and out == ""


def test_a_closed_pipe_ends_quietly():
    proc = subprocess.Popen(["klaverjas", "table", DEAL], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()           # as `klaverjas table ... | head -0` would
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert err == "" and proc.returncode == 141


def test_a_stale_engine_is_one_line_from_the_command(tmp_path):
    package = Path(solver_package.__file__).parent
    shutil.copytree(package, tmp_path / "solver", ignore=shutil.ignore_patterns("__pycache__"))
    with open(tmp_path / "solver" / "engine" / "_engine.pyx", "a") as f:
        f.write("\n# an edit after the build\n")
    result = subprocess.run(
        [sys.executable, "-S", "-c",
         f"import sys; from solver.cli import main; sys.exit(main(['table', {DEAL!r}]))"],
        cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("klaverjas: error: solver's compiled engine is stale")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


# -- solve --moves, --workers and --table-mb, one check per bid option ----------------------------

POSITION = [DEAL, "--trump", "S", "--leader", "S", "--playing", "EW"]


def test_solve_moves_json_is_a_moves_result(capsys):
    from solver.engine.moves import MovesResult
    _, out, _ = run(capsys, "solve", *POSITION, "--played", "HA", "--moves", "--json")
    result = MovesResult.from_dict(json.loads(out))
    assert result.values == solve_moves(Deal.from_pbn(DEAL), "S", "S", "EW", played=["HA"])
    assert (result.objective, result.played, result.to_move.name, result.playing.name) == \
        ("points", [solver_package.Card.parse("HA")], "W", "EW")
    assert result.to_dict() == json.loads(out)


def test_moves_result_round_trips_a_make_objective():
    from solver.engine.moves import MovesResult
    from solver import Card, Seat, Team
    result = MovesResult("make", {Card.parse("SK"): True, Card.parse("HA"): False},
                         [Card.parse("C7")], Seat.E, Team.NS)
    assert MovesResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


# Each subcommand that solves, with the arguments of a quick run (its JSON, where it has one).
SOLVING = {
    "table": ["table", DEAL, "--json"],
    "analyse": ["analyse", EXAMPLE, "--json"],
    "bid": ["bid", DEAL, "--dealer", "W", "--turned", "S", "--json"],
    "view": ["view", *POSITION, "--played", "SK", "--worlds", "4", "--json"],
}


@pytest.mark.parametrize("name", SOLVING)
def test_workers_and_table_size_do_not_change_the_result(capsys, name):
    _, default, _ = run(capsys, *SOLVING[name])
    for options in (["--workers", "1"], ["--workers", "2"], ["--table-mb", "4"],
                    ["--workers", "1", "--table-mb", "4"]):
        status, out, err = run(capsys, *SOLVING[name], *options)
        assert status == 0 and err == "" and out == default, options


def test_solve_takes_a_table_size(capsys):
    _, default, _ = run(capsys, "solve", *POSITION, "--json")
    status, out, _ = run(capsys, "solve", *POSITION, "--table-mb", "16", "--json")
    assert status == 0 and out == default


WHOLE_NUMBER_CHECKS = [
    ("--workers", "0", "--workers must be a whole number from 1 to 256, got 0"),
    ("--workers", "two", "--workers must be a whole number from 1 to 256, got 'two'"),
    ("--workers", "100000", "--workers must be a whole number from 1 to 256, got 100000"),
    ("--table-mb", "0", "--table-mb must be a whole number from 1 to 1048576, got 0"),
    ("--table-mb", "1.5", "--table-mb must be a whole number from 1 to 1048576, got '1.5'"),
]
# solve is one search (no workers); labels takes workers, each with the default table.
OPTIONS_OF = {**{name: ("--workers", "--table-mb") for name in SOLVING},
              "report": ("--workers", "--table-mb"), "solve": ("--table-mb",),
              "labels": ("--workers",)}
ARGV_OF = {**SOLVING, "report": ["report", EXAMPLE], "solve": ["solve", *POSITION],
           "labels": ["labels", "--out", "unused"]}


@pytest.mark.parametrize("argv, option, value, message", [
    (ARGV_OF[name], option, value, message) for name in ARGV_OF
    for option, value, message in WHOLE_NUMBER_CHECKS if option in OPTIONS_OF[name]])
def test_workers_and_table_size_are_checked_as_whole_numbers(capsys, argv, option, value, message):
    status, out, err = run(capsys, *argv, option, value)
    assert status == 2 and out == "" and err == f"klaverjas: error: {message}\n"


def test_worlds_are_checked_as_whole_numbers(capsys):
    status, _, err = run(capsys, "view", *POSITION, "--worlds", "0")
    assert status == 2 and err == "klaverjas: error: --worlds must be a whole number from 1 to 100000, got 0\n"


def test_a_table_size_goes_with_one_worker_only(capsys):
    status, out, err = run(capsys, "table", DEAL, "--workers", "2", "--table-mb", "4")
    assert status == 2 and out == ""
    assert "--table-mb" in err and "--workers 2" in err and err.count("\n") == 1


def test_running_out_of_memory_is_one_line(monkeypatch, capsys):
    import solver.cli.commands as commands

    def no_memory(*args):
        raise MemoryError
    monkeypatch.setattr(commands, "Solver", no_memory)
    status, out, err = run(capsys, "solve", *POSITION, "--table-mb", "100000")
    assert status == 2 and out == "" and err.startswith("klaverjas: error: out of memory")


# The procedure, --turned and --on-all-pass are checked by the parser, in the command line's
# words (test_messages_speak_the_command_line_language); the rest by the analysis.
@pytest.mark.parametrize("argv, call", [
    (["--dealer", "W", "--procedure", "utrechts", "--bid", "E H"],
     dict(dealer="W", procedure="utrechts", bid=("E", "H"))),
])
def test_bid_is_checked_once_by_the_analysis(capsys, argv, call):
    from solver import SolverError, analyse_bidding
    with pytest.raises(SolverError) as expected:
        analyse_bidding(Deal.from_pbn(DEAL), **call)
    status, out, err = run(capsys, "bid", DEAL, *argv)
    assert status == 2 and out == "" and err == f"klaverjas: error: {expected.value}\n"


def test_a_bid_by_a_seat_that_may_not_choose_names_the_seat_and_procedure(capsys):
    _, _, err = run(capsys, "bid", DEAL, "--dealer", "W", "--procedure", "utrechts", "--bid", "E H")
    assert "utrechts" in err and "seat E" in err


def test_report_solves_the_table_and_score_it_shows(monkeypatch, tmp_path, capsys):
    import solver.html as report
    seen = {}

    def render(analysis, table, dd_score, notation="en"):
        seen.update(analysis=analysis, table=table, dd_score=dd_score)
        return "<html></html>"
    monkeypatch.setattr(report, "render", render)
    status, _, _ = run(capsys, "report", EXAMPLE, "-o", str(tmp_path / "r.html"), "--table-mb", "4")
    record = seen["analysis"].record
    assert status == 0 and seen["table"] == solver_package.solve_table(record.deal, record.rules)
    assert seen["dd_score"] == solver_package.Solver(record.rules).value(record.game(), "score")


def test_python_dash_m_runs_the_command():
    result = subprocess.run([sys.executable, "-m", "solver.cli", "table", DEAL],
                            capture_output=True, text=True)
    assert result.returncode == 0 and "points for NS by trump and leader" in result.stdout


# -- no traceback anywhere: closed and broken streams, encodings, odd files, absurd numbers -------

KLAVERJAS = shutil.which("klaverjas") or "klaverjas"


def klaverjas(*argv, env=None, **kwargs):
    """The installed command run with `argv` (str or bytes) and extra environment `env`."""
    return subprocess.run([KLAVERJAS, *argv], env={**os.environ, **(env or {})},
                          capture_output=True, **kwargs)


def test_a_closed_stdout_is_one_line_and_status_1():
    result = subprocess.run(["sh", "-c", 'exec "$0" table "$1" >&-', KLAVERJAS, DEAL],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr == "klaverjas: error: standard output is closed: nowhere to print the result\n"


def test_a_closed_stdout_still_lets_report_write_its_file(tmp_path):
    out = tmp_path / "r.html"
    result = subprocess.run(["sh", "-c", 'exec "$0" report "$1" -o "$2" >&-', KLAVERJAS, EXAMPLE,
                             str(out)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "" and out.stat().st_size > 0


def test_a_closed_stderr_keeps_the_error_off_stdout():
    result = subprocess.run(["sh", "-c", 'exec "$0" table missing.txt 2>&-', KLAVERJAS],
                            capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""


def test_a_broken_stderr_still_gives_the_status():
    proc = subprocess.Popen([KLAVERJAS, "table", "missing.txt"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stderr.close()           # as `klaverjas ... 2>&1 >/dev/null | head -0` would
    out = proc.stdout.read()
    assert proc.wait(timeout=60) == 2 and out == b""


def test_a_full_disk_is_one_line_and_status_1():
    with open("/dev/full", "w") as full:
        result = subprocess.run([KLAVERJAS, "table", DEAL], stdout=full, stderr=subprocess.PIPE,
                                text=True)
    assert result.returncode == 1
    assert result.stderr == "klaverjas: error: cannot write the output: No space left on device\n"


# Strict standard streams: UTF-8, ASCII, and the C locale with Python's UTF-8 fallbacks off.
STRICT_STREAMS = {
    "utf-8": {"PYTHONIOENCODING": "utf-8"},
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "C": {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0",
          "PYTHONIOENCODING": ""},
}


@pytest.mark.parametrize("env", STRICT_STREAMS.values(), ids=STRICT_STREAMS)
def test_input_that_is_not_utf8_is_one_line_naming_it(tmp_path, env):
    result = klaverjas("table", "-", input=b"N:\xff", env=env)
    assert result.returncode == 2
    assert result.stderr == (b"klaverjas: error: cannot read standard input: not UTF-8 text "
                             b"(byte 0xff at offset 2)\n")
    record = tmp_path / "game.json"
    record.write_bytes(b'{"deal": "\xe9"}')
    result = klaverjas("analyse", str(record), env=env)
    assert result.returncode == 2 and result.stderr.endswith(
        b"game.json: not UTF-8 text (byte 0xe9 at offset 10)\n")


@pytest.mark.parametrize("env", STRICT_STREAMS.values(), ids=STRICT_STREAMS)
def test_an_output_path_that_is_not_utf8_is_written_and_printed(tmp_path, env):
    html = bytes(tmp_path) + b"/\xff.html"
    result = klaverjas("report", EXAMPLE, b"-o", html, env=env)
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.startswith(b"wrote " + bytes(tmp_path) + b"/\\xff.html (")
    assert Path(html.decode(errors="surrogateescape")).stat().st_size > 0
    out = bytes(tmp_path) + b"/labels-\xff"
    result = klaverjas("labels", "--out", out, "--deals", "1", "--positions", "root", "--format",
                       "npz", "--quiet", env=env)
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.endswith(b"written to " + bytes(tmp_path) + b"/labels-\\xff\n")


def test_suits_fall_back_to_letters_on_an_ascii_stream():
    result = klaverjas("table", DEAL, env=STRICT_STREAMS["ascii"])
    assert result.returncode == 0 and result.stderr == b""
    lines = result.stdout.decode("ascii").splitlines()
    assert lines[0] == "N  SA7      HKQ9     D9       C87"
    assert "* NS makes it, o EW makes it" in lines[5] and lines[-1].startswith("S S  ")
    result = klaverjas("view", *POSITION, "--played", "SK", "--worlds", "4",
                       env=STRICT_STREAMS["C"])
    assert result.returncode == 0 and b"+/-" in result.stdout


DUTCH_DEAL = "N:A7.HV9.9.87 B10.B.HV108.10 HV.A87.A7.9 98.10.B.AHVB"    # DEAL in "nl"


def test_dutch_cards_fall_back_to_dutch_suit_letters(tmp_path):
    result = klaverjas("table", DUTCH_DEAL, "--notation", "nl", env=STRICT_STREAMS["ascii"])
    assert result.returncode == 0
    assert result.stdout.decode("ascii").splitlines()[1] == "E  SB10     HB       RHV108   K10"
    record = tmp_path / "nl.json"
    record.write_text(json.dumps({"deal": DUTCH_DEAL, "dealer": "E", "trump": "R",
                                  "playing": "EW", "notation": "nl", "played": "SH S9 SA SB"}))
    result = klaverjas("analyse", str(record), env=STRICT_STREAMS["ascii"])
    assert result.returncode == 0
    assert result.stdout.decode("ascii").splitlines()[-4].startswith("EW plays R (R), S leads.")
    # bid prints in en whatever the notation of its input.
    result = klaverjas("bid", DUTCH_DEAL, "--notation", "nl", "--dealer", "W", "--turned", "R",
                       env=STRICT_STREAMS["ascii"])
    assert result.returncode == 0
    assert result.stdout.decode("ascii").splitlines()[2].split() == ["seat", "D", "D"]


def test_printable_keeps_what_the_stream_can_encode():
    from solver.cli.output import printable
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    latin1 = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    assert printable("♠A ° \udcff", utf8) == "♠A ° \\udcff"
    assert printable("♠A °", latin1) == "SA °"
    assert printable("♣H ♦V", latin1, "nl") == "KH RV"


def text_stdin(data: bytes, encoding="utf-8"):
    return io.TextIOWrapper(io.BytesIO(data), encoding=encoding)


BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize("what", ["deal file", "deal on stdin", "record file", "record on stdin",
                                  "rules file"])
def test_a_byte_order_mark_is_accepted(tmp_path, monkeypatch, capsys, what):
    record = Path(EXAMPLE).read_bytes()
    data = {"deal": DEAL.encode(), "record": record, "rules": b'{"roem": "none"}'}[what.split()[0]]
    path = tmp_path / "input"
    path.write_bytes(BOM + data)
    monkeypatch.setattr(sys, "stdin", text_stdin(BOM + data))
    source = "-" if what.endswith("stdin") else str(path)
    argv = {"deal": ["table", source], "record": ["analyse", source],
            "rules": ["table", DEAL, "--rules", source]}[what.split()[0]]
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == "" and out


def test_a_pipe_is_read(tmp_path, capsys):
    import threading
    fifo = tmp_path / "deal"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "w") as f:
            f.write(DEAL)
    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    status, out, err = run(capsys, "table", str(fifo))
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)    # lets the writer end if unread
    writer.join()
    os.close(reader)
    assert status == 0 and err == "" and "points for NS by trump and leader" in out


def test_a_process_substitution_is_read():
    result = subprocess.run(["bash", "-c", 'exec "$0" table <(echo "$1")', KLAVERJAS, DEAL],
                            capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.parametrize("argv", [["table", "{}"], ["analyse", "{}"], ["table", DEAL, "--rules", "{}"]])
def test_a_directory_is_said_to_be_one(tmp_path, capsys, argv):
    argv = [str(tmp_path) if a == "{}" else a for a in argv]
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and err.endswith(f"cannot read {tmp_path}: is a directory\n")


def test_an_unreadable_file_is_permission_denied(tmp_path, monkeypatch, capsys):
    import solver.cli.inputs as inputs
    path = tmp_path / "game.json"
    path.write_text("{}")

    def denied(*args):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(inputs, "open", denied, raising=False)
    status, _, err = run(capsys, "analyse", str(path))
    assert status == 2 and err == f"klaverjas: error: cannot read {path}: permission denied\n"


def test_endless_input_stops_with_one_line(capsys):
    result = subprocess.run([KLAVERJAS, "table", "/dev/zero"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and result.stderr == (
        "klaverjas: error: cannot read /dev/zero: longer than 4 MB, which no deal, record or "
        "rules file is\n")


def test_a_closed_stdin_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", None)
    status, _, err = run(capsys, "table", "-")
    assert status == 2 and err == "klaverjas: error: cannot read standard input: it is closed\n"


HUGE = "9" * 5000


@pytest.mark.parametrize("argv, message", [
    (["table", DEAL, "--rules", f'{{"pit_bonus": {HUGE}}}'],
     "field 'pit_bonus' is out of range: a whole number of 5000 digits"),
    (["table", DEAL, "--rules", f'{{"four_of_a_kind": {{"J": -{HUGE}}}}}'],
     "field 'four_of_a_kind.J' is out of range: a whole number of 5000 digits"),
    (["analyse", json.dumps({"deal": DEAL, "dealer": "E", "trump": "S", "playing": "EW",
                             "rules": {"multiplier": 0}}).replace("0}", HUGE + "}")],
     "game record: field 'rules.multiplier' is out of range: a whole number of 5000 digits"),
    (["analyse", f'{{"deal": [1, {HUGE}]}}'], "game record: field 'deal[1]' is out of range"),
])
def test_an_absurdly_long_json_number_names_its_field(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_a_long_json_number_in_a_rules_file_names_the_field(tmp_path, capsys):
    rules = tmp_path / "rules.json"
    rules.write_text(f'{{"multiplier": {HUGE}}}')
    status, _, err = run(capsys, "table", DEAL, "--rules", str(rules))
    assert status == 2 and "field 'multiplier' is out of range" in err
    rules.write_text(HUGE)
    status, _, err = run(capsys, "table", DEAL, "--rules", str(rules))
    assert status == 2 and "the number is out of range: a whole number of 5000 digits" in err


# Each option that sizes a run, with its largest value + 1 on a subcommand that takes it.
TOO_LARGE = [
    (["analyse", EXAMPLE], "--worlds", 100_000),
    (["bid", DEAL, "--dealer", "W", "--turned", "S"], "--worlds", 100_000),
    (["view", *POSITION], "--worlds", 100_000),
    (["labels", "--out", "unused"], "--worlds", 100_000),
    (["table", DEAL], "--workers", 256),
    (["labels", "--out", "unused"], "--workers", 256),
    (["labels", "--out", "unused"], "--deals", 10 ** 9),
    (["labels", "--out", "unused"], "--deals-per-shard", 100_000),
]


@pytest.mark.parametrize("argv, option, most", TOO_LARGE)
def test_numbers_that_size_a_run_have_an_upper_bound(capsys, monkeypatch, argv, option, most):
    # Refused while the arguments are read: no command starts, so none of its work is done.
    parsed = []
    read = argparse.ArgumentParser.parse_args

    def parse_args(self, *args, **kwargs):
        parsed.append(read(self, *args, **kwargs))
        return parsed[-1]
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_args)
    status, out, err = run(capsys, *argv, option, str(100 * most))
    assert parsed == []
    assert status == 2 and out == "" and f"{option} must be a whole number from" in err
    assert f"to {most}, got {100 * most}" in err


def test_help_gives_the_largest_worlds(capsys):
    for name in ("analyse", "bid", "view", "labels"):
        with pytest.raises(SystemExit):
            main([name, "--help"])
        assert "to 100,000 (default" in " ".join(capsys.readouterr().out.split())


def test_more_label_files_than_a_run_may_have_is_refused(capsys):
    status, _, err = run(capsys, "labels", "--out", "unused", "--deals", "2000000",
                         "--deals-per-shard", "1")
    assert status == 2 and "makes 2000000 shards; a run has at most 100000" in err


def test_a_billion_deals_reach_the_labels_at_once(monkeypatch, capsys):
    import solver.labels as labels
    seen = {}

    def generate(config, out, **kwargs):
        seen.update(config=config, kwargs=kwargs)
        return "nothing"
    monkeypatch.setattr(labels, "generate", generate)
    # Nothing the size of the run is made on the way: a list of a billion deals would take
    # gigabytes.
    tracemalloc.start()
    status, out, _ = run(capsys, "labels", "--out", "unused", "--deals", str(10 ** 9),
                         "--deals-per-shard", "10000", "--quiet")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 2 ** 20
    assert status == 0 and seen["config"].deals == 10 ** 9
    assert seen["kwargs"]["command"] == (f"klaverjas labels --out unused --deals {10 ** 9} "
                                         f"--deals-per-shard 10000 --quiet")


def test_labels_draw_no_progress_bar_without_stderr(monkeypatch, capsys):
    import solver.labels as labels
    seen = {}
    monkeypatch.setattr(labels, "generate", lambda config, out, **kw: seen.update(kw) or "x")
    monkeypatch.setattr(sys, "stderr", None)
    assert main(["labels", "--out", "unused"]) == 0 and seen["progress"] is False


# -- any command line: a result or one line, never a traceback ------------------------------------

EXIT_STATUSES = {0, 1, 2, 130, 141}
HUGE_JSON = f'{{"pit_bonus": {HUGE}}}'

junk = st.text(max_size=12) | st.sampled_from(
    ["", "-", "--", "-1", "0", "1.5", "1e9", "9" * 40, HUGE, "\udcff", "\ufeff", "\x00", "nan",
     "N:", "{", "[" * 2000, "{}", "null", "♠", "x" * 300, "a\nb"])


def option_values(folder: Path):
    """Per option (or positional): a strategy of good values and one of malformed ones. Good
    values that size a run stay small, so that an example takes a moment."""
    files = {"deal.txt": DEAL.encode(), "bom.txt": BOM + DEAL.encode(), "bad.txt": b"N:\xff\xfe",
             "empty": b"", "rules.json": HUGE_JSON.encode(), "bom-rules.json": BOM + b"{}"}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    paths = st.sampled_from([str(folder / name) for name in files] + [
        str(folder), str(folder / "missing"), "/dev/null", str(folder / "deal.txt" / "x")])
    seats = st.sampled_from(["N", "E", "S", "W"])
    suits = st.sampled_from(["C", "D", "H", "S", "♠"])
    small = st.sampled_from(["0", "1", "2", "4"])
    too_large = st.sampled_from(["-3", "100001", "257", "1048577", "1000000001", "x", "1.5"])
    outputs = st.sampled_from([str(folder / "r.html"), str(folder / "\udcff.html")])
    good = {
        "deal": st.sampled_from([DEAL, "-", str(folder / "deal.txt"), str(folder / "bom.txt"),
                                 EXAMPLE]),
        "record": st.sampled_from([EXAMPLE, "-", json.dumps(
            {"deal": DEAL, "dealer": "E", "trump": "S", "playing": "EW", "played": "SK S9"})]),
        "--rules": st.sampled_from(["amsterdam", "rotterdam", '{"roem": "none"}',
                                    str(folder / "bom-rules.json")]),
        "--trump": suits, "--turned": suits, "--leader": seats, "--seat": seats,
        "--dealer": seats, "--playing": st.sampled_from(["NS", "EW"]), "--dummy": seats,
        "--played": st.sampled_from(["", "HA", "HA HT", "SK", "SK S9", "C7"]),
        "--objective": st.sampled_from(["points", "score", "make"]),
        "--bid": st.sampled_from(["N H", "E S", "W,C"]),
        "--procedure": st.sampled_from(["draaikaart", "utrechts", "vrij"]),
        "--on-all-pass": st.sampled_from(["turned_forced", "dealer", "redeal"]),
        "--positions": st.sampled_from(["root", "trick-starts"]),
        "--play": st.sampled_from(["optimal", "random", "mixed:0.5"]),
        "--format": st.sampled_from(["npz", "parquet"]),
        "--out": st.sampled_from([str(folder / "labels"), str(folder / "\udcfflabels")]),
        "--output": outputs, "--worlds": small, "--seed": small | st.just(str(2 ** 70)),
        "--workers": st.sampled_from(["1", "2"]), "--table-mb": st.sampled_from(["1", "4"]),
        "--deals": st.sampled_from(["1", "2"]), "--deals-per-shard": st.sampled_from(["1", "1000"]),
        "--notation": st.sampled_from(["en", "nl"]),
        "--verify": st.sampled_from([str(folder / "labels"), str(folder)]),
        "--contract": st.sampled_from(["trump", "ledig"]), "--bidder": seats,
        "--team-a": st.sampled_from(["random", "rule", "dd", "pimc:2", "pimc:2+play"]),
        "--team-b": st.sampled_from(["random", "rule", "dd", "pimc:2"]),
        "--sd-worlds": small, "--report": outputs, "--round": st.sampled_from(["1"]),
        "--after": st.sampled_from(["0", "2", "4", "13"]),
        "--belief": st.sampled_from(["uniform", "play"]),
        "--labels": st.sampled_from([str(folder / "labels"), str(folder)]),
        "--hidden": st.sampled_from(["1", "4"]), "--layers": st.sampled_from(["1", "2"]),
        "--epochs": st.sampled_from(["1"]), "--storage": st.sampled_from(["float32", "float16"]),
    }
    bad = {
        "deal": paths | st.sampled_from([DEAL.lower(), DEAL[:-3]]), "record": paths,
        "--rules": paths | st.sampled_from(
            [HUGE_JSON, '{"pit_bonus": 1e999}', '{"bogus": 1}', '{"roem": ', "[" * 5000]),
        "--played": st.sampled_from(["XX", "HA HA", "SK " * 40]),
        "--contract": st.sampled_from(["nil", "Ledig", ""]),
        "--output": st.sampled_from([str(folder), str(folder / "no" / "r.html"), ""]),
        "--out": st.sampled_from([str(folder / "deal.txt"), "/dev/null", ""]),
        **{option: too_large for option in ("--worlds", "--seed", "--workers", "--table-mb",
                                            "--deals", "--deals-per-shard", "--sd-worlds",
                                            "--hidden", "--layers", "--epochs")},
        **{option: st.sampled_from(["pimc:", "pimc:-1", "pimc:2+hunch",
                                    "policy:" + str(folder / "deal.txt"),
                                    "policy:" + str(folder), "openspiel:x", "Random"])
           for option in ("--team-a", "--team-b")},
        "--report": st.sampled_from([str(folder), str(folder / "no" / "a.html"), ""]),
        "--round": st.sampled_from(["0", "2", "x", "-1"]),
        "--after": st.sampled_from(["-1", "33", "x", "1.5"]),
    }
    return good, bad


@st.composite
def command_lines(draw, good, bad):
    """A list of arguments: a real subcommand with its positionals and some of its options.
    Half the time every value is a good one; otherwise each may be malformed, the order shuffled
    and a stray word added."""
    from solver.cli.parser import build_parser
    parser = build_parser()
    subcommands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    # serve runs until it is stopped: tests/test_web_api.py starts and stops it.
    name = draw(st.sampled_from(sorted(set(subcommands.choices) - {"serve"})))
    clean = draw(st.booleans())

    def value(key):
        if clean or draw(st.integers(0, 2)):
            return draw(good[key])
        return draw(bad.get(key, junk) | junk)
    argv = []
    for action in subcommands.choices[name]._actions:
        if isinstance(action, argparse._HelpAction) or action.dest == "scheduler":
            continue          # --help is drawn below; --scheduler would dial out to a cluster
        if not action.option_strings:
            argv.append(value(action.dest))
            continue
        # --deals and --worlds are always given: their defaults (1000 deals, 64 worlds) are slow.
        if not action.required and action.dest not in ("deals", "worlds") and draw(
                st.integers(0, 2)):
            continue
        option = action.option_strings[-1]
        argv += [option] if action.nargs == 0 else [option, value(option)]
    if clean:
        return [name, *argv]
    if draw(st.booleans()):
        argv = draw(st.permutations(argv))
    extra = draw(st.sampled_from([[], ["--help"], ["--version"], [draw(junk)]]))
    return draw(st.sampled_from([[name, *argv, *extra], extra]))


class BrokenPipe:
    """A standard output whose reader went away."""
    encoding = "utf-8"

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        pass


def standard_stream(kind: str):
    if kind == "closed":
        return None
    if kind == "broken":
        return BrokenPipe()
    return io.TextIOWrapper(io.BytesIO(), encoding=kind, errors="strict", write_through=True)


def subcommands():
    from solver.cli.parser import build_parser
    actions = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(actions[0].choices)


@pytest.mark.parametrize("command", subcommands())
def test_every_help_prints_on_an_ascii_terminal(command):
    """The help names signs an ASCII terminal lacks: it prints them as it can, no traceback."""
    from unittest import mock
    stdout = standard_stream("ascii")
    with mock.patch.object(sys, "stdout", stdout), pytest.raises(SystemExit) as stopped:
        main([command, "--help"])
    assert stopped.value.code == 0
    assert f"klaverjas {command}" in stdout.buffer.getvalue().decode("ascii")


def test_a_help_with_signs_an_ascii_terminal_lacks_prints_them_escaped():
    from solver.cli.parser import _Parser
    stdout = standard_stream("ascii")
    _Parser(prog="klaverjas x", description="the \u03b1\u03bc search").print_help(stdout)
    assert "the \\u03b1\\u03bc search" in stdout.buffer.getvalue().decode("ascii")


@pytest.mark.parametrize("examples", example_counts(50, 20))
def test_any_command_line_ends_in_a_known_status_without_a_traceback(tmp_path, examples):
    from unittest import mock
    good, bad = option_values(tmp_path)

    @settings(max_examples=examples, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(command_lines(good, bad), st.sampled_from(
               [DEAL.encode(), BOM + DEAL.encode(), Path(EXAMPLE).read_bytes(), b"\xff"]) |
           st.binary(max_size=40), st.sampled_from(["utf-8", "ascii"]),
           st.sampled_from(["utf-8", "utf-8", "ascii", "closed", "broken"]),
           st.sampled_from(["utf-8", "ascii", "closed"]))
    def check(argv, stdin, stdin_kind, stdout_kind, stderr_kind):
        stdout, stderr = standard_stream(stdout_kind), standard_stream(stderr_kind)
        with mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding=stdin_kind)), \
                mock.patch.object(sys, "stdout", stdout), mock.patch.object(sys, "stderr", stderr):
            try:
                status = main(argv)
            except SystemExit as exit_:       # --help and --version
                status = exit_.code
        err = stderr.buffer.getvalue().decode(stderr_kind) if stderr is not None else ""
        assert status in EXIT_STATUSES, (status, err)
        assert "Traceback" not in err
        if status in (1, 2) and err and argv[:1] not in ([], ["labels"]):    # help; progress
            assert err.startswith("klaverjas: error: ") and err.count("\n") == 1, err
    check()


# -- a report never takes the place of what it reads, or of an earlier report --------------------

def test_report_refuses_to_write_over_the_record_it_reads(tmp_path, capsys):
    record = tmp_path / "round.html"
    record.write_text(Path(EXAMPLE).read_text())
    status, out, err = run(capsys, "report", str(record))
    assert status == 2 and out == ""
    assert "round.html is the record this command reads" in err and "-o" in err
    assert record.read_text() == Path(EXAMPLE).read_text()


@pytest.mark.parametrize("how", ["same name", "a link to it"])
def test_report_refuses_an_output_that_is_its_input(tmp_path, capsys, how):
    record = tmp_path / "game.json"
    record.write_text(Path(EXAMPLE).read_text())
    out = record
    if how == "a link to it":
        out = tmp_path / "page.html"
        out.symlink_to(record)
    status, _, err = run(capsys, "report", str(record), "-o", str(out))
    assert status == 2 and "argument -o:" in err and "is the record this command reads" in err
    assert record.read_text() == Path(EXAMPLE).read_text()


def full_disk_after(monkeypatch, folder: Path, keep: int = 100):
    """Every file opened for writing in `folder` takes `keep` bytes, then the disk is full."""
    import builtins
    real_open = builtins.open

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, data):
            self.f.write(data[:keep])
            self.f.flush()
            raise OSError(28, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    def full_open(file, mode="r", *args, **kwargs):
        f = real_open(file, mode, *args, **kwargs)
        name = file if isinstance(file, (str, os.PathLike)) else getattr(f, "name", "")
        # A descriptor (mkstemp's) is in the folder too: its file is the only one written.
        if any(m in mode for m in "wax") and (isinstance(file, int)
                                              or Path(name).parent == folder):
            return Full(f)
        return f
    monkeypatch.setattr(builtins, "open", full_open)
    monkeypatch.setattr(io, "open", full_open)


def test_a_full_disk_leaves_an_earlier_report_whole_and_exits_1(tmp_path, monkeypatch, capsys):
    out = tmp_path / "r.html"
    assert run(capsys, "report", EXAMPLE, "-o", str(out))[0] == 0
    earlier = out.read_bytes()
    full_disk_after(monkeypatch, tmp_path)
    status, stdout, err = run(capsys, "report", EXAMPLE, "-o", str(out), "--worlds", "0")
    assert status == 1 and stdout == ""
    assert err == f"klaverjas: error: cannot write {out}: No space left on device\n"
    assert out.read_bytes() == earlier
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]    # no temporary file left


def test_a_report_gets_the_mode_of_any_new_file(tmp_path, capsys):
    out = tmp_path / "r.html"
    old = os.umask(0o027)
    try:
        assert run(capsys, "report", EXAMPLE, "-o", str(out))[0] == 0
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o640


def test_a_full_disk_under_labels_exits_1(tmp_path, monkeypatch, capsys):
    out = tmp_path / "labels"
    out.mkdir()
    full_disk_after(monkeypatch, out, keep=0)
    status, _, err = run(capsys, "labels", "--out", str(out), "--deals", "1", "--positions",
                         "root", "--format", "npz", "--workers", "1", "--quiet")
    assert status == 1 and "No space left on device" in err


def test_a_full_disk_under_labels_names_the_file_it_could_not_write(tmp_path, monkeypatch,
                                                                     capsys):
    # The first write of a run into a new folder is the pid in its lock file.
    from solver.labels.folder import LOCK

    def full_disk(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "pwrite", full_disk)
    out = tmp_path / "labels"
    status, _, err = run(capsys, "labels", "--out", str(out), "--deals", "1", "--positions",
                         "root", "--format", "npz", "--workers", "1", "--quiet")
    assert (status, err) == (1, f"klaverjas: error: cannot write {out / LOCK}: "
                                "No space left on device\n")


def test_report_to_a_link_writes_the_file_it_shows(tmp_path, capsys):
    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    assert run(capsys, "report", EXAMPLE, "-o", str(link), "--worlds", "0")[0] == 0
    assert link.is_symlink() and real.read_text().startswith("<!DOCTYPE html>")


# -- one round of many, and a record wherever a round is taken ------------------------------------

@pytest.fixture
def two_rounds(tmp_path):
    """A JSON Lines file of two records: the example, then the same deal with clubs trump."""
    first = json.loads(Path(EXAMPLE).read_text())
    second = {**first, "trump": "C", "played": first["played"].split()[:4]}
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    return path


def test_report_of_many_rounds_says_how_to_pick_one(two_rounds, capsys):
    status, _, err = run(capsys, "report", str(two_rounds))
    assert status == 2 and "Extra data" not in err
    assert "holds 2 rounds" in err and "report takes one round: pick it with --round N" in err


def test_report_and_analyse_take_the_round_picked(two_rounds, tmp_path, capsys):
    out = tmp_path / "second.html"
    assert run(capsys, "report", str(two_rounds), "--round", "2", "-o", str(out))[0] == 0
    assert "EW plays ♣" in out.read_text()
    status, text, _ = run(capsys, "analyse", str(two_rounds), "--round", "2")
    assert status == 0 and "EW plays ♣ (C)" in text and "Unfinished after 4 cards" in text
    status, _, err = run(capsys, "report", str(two_rounds), "--round", "3")
    assert status == 2 and "--round 3:" in err and "holds 2 rounds" in err


def test_bid_checks_the_bid_of_a_record(capsys):
    status, from_record, _ = run(capsys, "bid", EXAMPLE, "--procedure", "free")
    assert status == 0
    # game.json: dealer E, EW chose spades; under "free" the first seat of EW, E, may choose.
    _, typed, _ = run(capsys, "bid", DEAL, "--dealer", "E", "--procedure", "free", "--bid", "E S")
    assert from_record == typed and "E chose S" in from_record


def test_bid_of_a_record_without_a_dealer_asks_for_one(tmp_path, capsys):
    record = json.loads(Path(EXAMPLE).read_text())
    del record["dealer"]
    record["leader"] = "S"
    status, _, err = run(capsys, "bid", json.dumps(record), "--procedure", "free")
    assert status == 2 and "--dealer" in err


# -- one notation per output ------------------------------------------------------------------------

def test_analyse_prints_table_and_summary_in_one_notation(tmp_path, capsys):
    _, en, _ = run(capsys, "analyse", EXAMPLE)
    assert "trick 1 S ♠K (-20, best ♥A)" in en and " SK " not in en
    english = tmp_path / "english.json"       # a record that names its notation
    english.write_text(json.dumps({**json.loads(Path(EXAMPLE).read_text()), "notation": "en"}))
    _, nl, _ = run(capsys, "analyse", str(english), "--notation", "nl")
    assert "trick 1 S ♠H (-20, best ♥A)" in nl and "♠K" not in nl


def test_a_dutch_record_is_analysed_in_its_own_notation(tmp_path, capsys):
    from solver import GameRecord
    record = GameRecord.load(EXAMPLE)
    dutch = {**json.loads(Path(EXAMPLE).read_text()), "notation": "nl",
             "deal": record.deal.to_pbn(notation="nl"),
             "played": " ".join(c.to_str(notation="nl") for c in record.played)}
    path = tmp_path / "dutch.json"
    path.write_text(json.dumps(dutch))
    _, text, _ = run(capsys, "analyse", str(path))
    assert "trick 1 S ♠H (-20, best ♥A)" in text and "♠K" not in text
    assert run(capsys, "report", str(path), "-o", str(tmp_path / "r.html"))[0] == 0
    page = (tmp_path / "r.html").read_text()
    assert '<html lang="nl">' in page and "<h2>Slagen</h2>" in page and ">♠H<" in page


# -- messages --------------------------------------------------------------------------------------

def test_a_file_name_keeps_its_signs_on_an_ascii_stream(tmp_path):
    result = klaverjas("report", EXAMPLE, "-o", str(tmp_path / "♠A7.html"),
                       env=STRICT_STREAMS["ascii"])
    assert result.returncode == 0 and (tmp_path / "♠A7.html").exists()
    assert result.stdout.startswith(f"wrote {tmp_path}/\\u2660A7.html (".encode())
    result = klaverjas("analyse", str(tmp_path / "♥missing.json"), env=STRICT_STREAMS["ascii"])
    assert result.returncode == 2 and b"\\u2665missing.json: no such file" in result.stderr
    assert b"Hmissing" not in result.stderr


def test_a_table_of_three_without_a_dummy_names_the_option(capsys):
    status, _, err = run(capsys, "solve", *POSITION, "--rules", '{"players": 3}')
    assert status == 2 and "needs --dummy" in err and "dummy='N'" not in err


# -- bid and a record: --turned, --dummy and a recorded ledig bid ---------------------------------

def _three_player_record(tmp_path: Path) -> Path:
    """examples/game.json at a table of three, naming no dummy (EW plays)."""
    data = json.loads(Path(EXAMPLE).read_text())
    data["rules"] = {"players": 3}
    path = tmp_path / "g3.json"
    path.write_text(json.dumps(data))
    return path


def test_bid_without_turned_names_the_option(capsys):
    status, _, err = run(capsys, "bid", EXAMPLE)
    assert status == 2 and "--turned" in err and "turned='H'" not in err


@pytest.mark.parametrize("command", ["analyse", "report", "bid"])
def test_a_record_without_its_dummy_names_the_option(tmp_path, capsys, command):
    extra = ["--turned", "H"] if command == "bid" else []
    status, _, err = run(capsys, command, str(_three_player_record(tmp_path)), *extra)
    assert status == 2 and "give the dummy's seat with --dummy" in err and "dummy='N'" not in err


@pytest.mark.parametrize("command", ["analyse", "report", "bid"])
def test_dummy_fills_in_a_record_that_names_none(tmp_path, capsys, command):
    record = str(_three_player_record(tmp_path))
    extra = {"analyse": [], "report": ["-o", str(tmp_path / "r.html"), "--worlds", "0"],
             "bid": ["--turned", "H"]}[command]
    status, out, err = run(capsys, command, record, "--dummy", "W", *extra)
    assert (status, err) == (0, "")
    if command == "analyse":
        assert "E (chooser, with dummy W)" in out
    status, _, err = run(capsys, command, record, "--dummy", "N", *extra)
    assert status == 2 and err.startswith("klaverjas: error: argument --dummy: N does not fit "
                                          "this record: dummy=N is in team NS")


def test_bid_gives_the_verdict_on_a_recorded_ledig_bid(capsys):
    ledig = str(Path(EXAMPLE).with_name("ledig.json"))
    status, out, _ = run(capsys, "bid", ledig, "--procedure", "free")
    assert status == 0
    assert out.rstrip().splitlines()[-1] == "N bid ledig: makeable, takes no trick double dummy"


def test_a_report_written_to_standard_output_is_the_page_alone(tmp_path):
    # -o /dev/stdout: the stream holds the page and nothing else; the note goes to stderr.
    page = tmp_path / "page.html"
    with open(page, "wb") as stdout:
        result = subprocess.run([KLAVERJAS, "report", EXAMPLE, "-o", "/dev/stdout",
                                 "--worlds", "8"], stdout=stdout, stderr=subprocess.PIPE)
    assert result.returncode == 0
    assert page.read_text().rstrip().endswith("</html>") and "wrote" not in page.read_text()
    assert result.stderr.decode().startswith("wrote /dev/stdout (")


@pytest.mark.parametrize("command", ["analyse", "report"])
def test_a_belief_without_worlds_is_refused_not_ignored(capsys, command, tmp_path):
    out = ["-o", str(tmp_path / "r.html")] if command == "report" else []
    status, _, err = run(capsys, command, EXAMPLE, "--belief", "play", *out)
    assert status == 2
    assert "argument --belief: the play belief weighs the single-dummy worlds, and there are " \
           "none: give --worlds N" in err
    assert not (tmp_path / "r.html").exists()
