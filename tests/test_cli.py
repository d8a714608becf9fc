"""The `klaverjas` command: output, --json round trips, and one-line errors with status 2."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver import (BidAnalysis, DDTable, Deal, PlayAnalysis, SolveResult, solve, solve_moves)
from solver.cli import main

DEAL = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"
EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "game.json")


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
    (["bid", DEAL, "--dealer", "W"], "needs the turned suit: give --turned H"),
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
