"""The duplicate arena: both tables get the same round, the result depends on the seed alone
(never on the worker count), the double-dummy yardstick gives DDBot zero, the numbers are
what the moves say, and the command line and the HTML page show them."""
import json
import math
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import worker_fakes
from conftest import survivors_after, worker_processes
from test_bots import CRAFTED, write_crafted
from solver import Deal, Game, Solver
from solver.arena import ArenaResult, play_arena, play_table
from solver.analysis.verdicts import t_quantile
from solver.arena.result import mean_and_ci95, quantile
from solver.arena.run import SD_WORLDS
from solver.bots import DDBot, PIMCBot, RandomBot, RuleBot
from solver.model.rounds import RoundStream
from solver.cli import main
from solver.cli.parser import build_parser
from solver.errors import BotError
from solver.html.arena import render_arena
from solver.labels import LabelConfig, deal_setup


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(scope="module")
def rule_against_random():
    return play_arena("rule", "random", deals=6, seed=3, workers=1)


def test_the_same_bot_on_both_sides_draws_every_deal():
    # Duplicate: at the second table the other team holds the same cards, so a deterministic
    # bot against itself scores exactly as much at both: every deal's difference is 0.
    result = play_arena("rule", "rule", deals=5, seed=2, workers=1)
    assert [d.score_diffs[0] + d.score_diffs[1] for d in result.per_deal] == [0] * 5
    assert result.mean_score_diff == 0.0 and result.ci95 == (0.0, 0.0)


def test_the_double_dummy_bot_loses_nothing():
    result = play_arena("dd", "random", deals=3, seed=1, workers=1)
    dd = result.bots["a"]
    assert dd.dd_loss_per_card == 0.0 and dd.optimal_share == 1.0
    assert dd.dd_loss_by_trick == [0.0] * 8 and dd.cards > 0
    assert result.bots["b"].dd_loss_per_card > 0


def test_the_result_does_not_depend_on_the_workers(rule_against_random):
    two = play_arena("rule", "random", deals=6, seed=3, workers=2)
    assert two.per_deal == rule_against_random.per_deal
    for side in "ab":
        mine, theirs = rule_against_random.bots[side].to_dict(), two.bots[side].to_dict()
        for timing in ("ms_per_move_median", "ms_per_move_p95"):
            del mine[timing], theirs[timing]
        assert mine == theirs


def test_another_seed_gives_other_deals(rule_against_random):
    assert play_arena("rule", "random", deals=6, seed=4, workers=1).per_deal != \
        rule_against_random.per_deal


def test_the_deals_are_those_of_the_labels_stream():
    assert RoundStream(seed=3).round(0)[:4] == deal_setup(LabelConfig(seed=3), 0)
    deal, trump, leader, playing, _, _ = RoundStream(seed=3).round(0)
    table = play_table(deal, trump, leader, playing, [RuleBot()] * 2 + [RandomBot()] * 2,
                       Solver())
    game = Game(deal, trump, leader, playing)
    game.replay([m.card for m in table.moves])
    assert game.is_over and table.moves[0].seat == leader


def test_table_losses_are_the_solvers():
    solver = Solver()
    deal = Deal.random(9)
    table = play_table(deal, "D", "S", "EW", [RandomBot(seed=s) for s in range(4)], solver)
    game = Game(deal, "D", "S", "EW")
    for move in table.moves:
        values = solver.move_values(game)
        sign = 1 if game.to_move.team == game.playing else -1
        assert move.dd_loss == max(sign * v for v in values.values()) - sign * values[move.card]
        assert move.choices == len(game.legal_cards()) and move.trick == game.trick_number
        game.play(move.card)
    assert sum(table.scores.values()) > 0


def test_the_interval_is_students_t_as_the_verdicts_use():
    # 1..5: mean 3, standard error sqrt(2.5 / 5); t(0.975, 4 degrees of freedom) = 2.776445
    mean, (low, high) = mean_and_ci95([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 2.776445 * math.sqrt(2.5 / 5)
    assert mean == 3.0 and (low, high) == pytest.approx((3 - half, 3 + half), abs=1e-5)


def test_the_mean_and_interval_are_the_usual_ones():
    values = [12.0, -40.0, 3.5, 80.0, 0.0]
    mean, (low, high) = mean_and_ci95(values)
    half = t_quantile(0.975, 4) * np.std(values, ddof=1) / math.sqrt(len(values))
    assert mean == pytest.approx(np.mean(values))
    assert (low, high) == pytest.approx((mean - half, mean + half))
    assert quantile(values, 0.95) == pytest.approx(np.quantile(values, 0.95))


def test_an_older_result_is_read_with_the_t_interval_and_no_first_leads(rule_against_random):
    older = rule_against_random.to_dict()
    older["ci95"] = [-1.0, 1.0]        # written by 1.96 standard errors, say
    for stats in older["bots"].values():
        del stats["first_leads"], stats["first_lead_share"]
    read = ArenaResult.from_dict(older)
    assert read.ci95 == rule_against_random.ci95
    assert read.bots["a"].first_lead_share is None and read.bots["a"].first_leads == 0
    assert "1st lead ok" in str(read) and "first leads optimal" in read.to_html()


def test_every_first_lead_of_the_double_dummy_bot_loses_nothing():
    # The leader's team is team a at one table of each deal and team b at the other.
    result = play_arena("dd", "random", deals=4, seed=2, workers=1, sd_worlds=0)
    dd, random = result.bots["a"], result.bots["b"]
    assert dd.first_leads == random.first_leads == 4
    assert dd.first_lead_share == 1.0 and random.first_lead_share < 1.0


def test_the_first_lead_share_counts_the_first_card_of_each_table_alone():
    class WorstFirstLead(DDBot):
        """Double dummy, but the first card of the round is the worst one."""

        def choose(self, game, seat):
            if not game.played:
                values = self.solver_for(game).move_values(game)
                sign = 1 if seat.team == game.playing else -1
                return min(values, key=lambda card: sign * values[card])
            return super().choose(game, seat)

        def solver_for(self, game):
            return Solver(game.rules)

    result = play_arena(WorstFirstLead(), "dd", deals=2, seed=1, workers=1, sd_worlds=0)
    assert result.bots["a"].first_lead_share == 0.0 and result.bots["a"].first_leads == 2
    assert result.bots["b"].first_lead_share == 1.0


def test_a_bot_that_judges_as_the_arena_does_loses_nothing_single_dummy():
    # PIMCBot draws its worlds as the arena's single-dummy judge does: with the judge's seed
    # and as many worlds, it plays the judge's best card at every turn.
    solver = Solver()
    bots = [PIMCBot(worlds=4, seed=7) for _ in range(4)]
    table = play_table(Deal.random(5), "S", "N", "NS", bots, solver, sd_worlds=4, sd_seed=7)
    assert [m.sd_loss for m in table.moves] == [0.0] * 32
    other = play_table(Deal.random(5), "S", "N", "NS", [RandomBot(seed=s) for s in range(4)],
                       solver, sd_worlds=4, sd_seed=7)
    assert sum(m.sd_loss for m in other.moves) > 0


def test_the_difference_is_the_mean_of_the_deals(rule_against_random):
    r = rule_against_random
    assert r.mean_score_diff == pytest.approx(
        np.mean([sum(d.score_diffs) / 2 for d in r.per_deal]))
    assert r.ci95[0] <= r.mean_score_diff <= r.ci95[1]


def test_the_json_holds_what_scripts_read_and_round_trips(rule_against_random):
    d = json.loads(json.dumps(rule_against_random.to_dict()))
    assert d["deals"] == 6 and len(d["ci95"]) == 2
    for side, name in (("a", "rule"), ("b", "random")):
        assert d["bots"][side]["name"] == name
        assert {"dd_loss_per_card", "optimal_share", "ms_per_move_median"} <= set(d["bots"][side])
    assert ArenaResult.from_dict(d).to_dict() == d


def test_single_dummy_loss_is_measured_by_default_and_off_at_zero():
    result = play_arena("rule", "dd", deals=1, seed=5, workers=1, sd_worlds=2)
    assert result.bots["a"].sd_loss_per_card is not None and result.sd_worlds == 2
    assert result.bots["a"].sd_loss_per_card >= 0
    by_default = play_arena("rule", "dd", deals=1, seed=5, workers=1)
    assert by_default.sd_worlds == SD_WORLDS and by_default.bots["a"].sd_loss_per_card > 0
    off = play_arena("rule", "dd", deals=1, seed=5, workers=1, sd_worlds=0)
    assert off.bots["a"].sd_loss_per_card is None


def test_the_command_judges_single_dummy_over_as_many_worlds_as_play_arena():
    assert build_parser().parse_args(["arena", "--team-a", "rule", "--team-b", "dd"]
                                     ).sd_worlds == SD_WORLDS


def test_a_bot_object_sits_at_every_seat_of_its_team():
    result = play_arena(DDBot(), RuleBot(), deals=1, seed=0, workers=1)
    assert result.bots["a"].name == "dd" and result.bots["a"].dd_loss_per_card == 0.0


@pytest.mark.parametrize("kwargs, message", [
    ({"deals": 0}, "deals must be a whole number from 1"),
    ({"seed": -1}, "seed must be a whole number from 0"),
    ({"sd_worlds": -2}, "sd_worlds must be a whole number from 0"),
    ({"workers": 0}, "workers must be a whole number of at least 1"),
    ({"team_a": "nobody"}, "unknown bot 'nobody'"),
])
def test_arena_options_are_checked(kwargs, message):
    options = {"team_a": "random", "team_b": "rule", "deals": 1, "workers": 1, **kwargs}
    with pytest.raises(BotError, match=message):
        play_arena(**options)


# -- the command -----------------------------------------------------------------------------

def test_the_command_prints_a_table(capsys):
    status, out, _ = run(capsys, "arena", "--team-a", "rule", "--team-b", "random", "--deals",
                         "2", "--seed", "1", "--workers", "1", "--quiet")
    assert status == 0
    assert "rule (a) against random (b): 2 deals" in out and "DD loss per card by trick" in out


def test_the_command_json_is_the_python_result(capsys):
    status, out, _ = run(capsys, "arena", "--team-a", "rule", "--team-b", "dd", "--deals", "2",
                         "--seed", "4", "--workers", "1", "--json", "--quiet")
    assert status == 0
    expected = play_arena("rule", "dd", deals=2, seed=4, workers=1).to_dict()
    got = json.loads(out)
    assert got["per_deal"] == expected["per_deal"] and got["ci95"] == expected["ci95"]


@pytest.mark.parametrize("argv, message", [
    (["--team-a", "bogus", "--team-b", "rule"], "argument --team-a: unknown bot 'bogus'"),
    (["--team-a", "rule", "--team-b", "pimc:zero"], "argument --team-b: the worlds of pimc:zero"),
    (["--team-a", "rule", "--team-b", "policy:/no/such.npz"], "argument --team-b: policy file"),
    (["--team-a", "rule", "--team-b", "rule", "--deals", "0"], "--deals must be a whole number"),
    (["--team-b", "rule"], "the following arguments are required: --team-a"),
    (["--team-a", "pimc:²", "--team-b", "rule"], "argument --team-a: the worlds of pimc:²"),
    (["--team-a", "openspiel:ismcts:²", "--team-b", "rule"],
     "argument --team-a: the simulations of openspiel:ismcts:²"),
    (["--team-a", "openspiel:ismcts:1:2", "--team-b", "rule"],
     "argument --team-a: the simulations of openspiel:ismcts:1:2"),
    (["--team-a", "random:", "--team-b", "rule"], "argument --team-a: unknown bot 'random:'"),
    (["--team-a", "policy:/dev/null", "--team-b", "rule"],
     "argument --team-a: policy file '/dev/null' is not a policy model"),
    (["--team-a", "no_such_module_here:MyBot", "--team-b", "rule"],
     "argument --team-a: bot 'no_such_module_here:MyBot': no module named"),
    (["--team-a", "json:JSONDecoder", "--team-b", "rule"],
     "argument --team-a: bot 'json:JSONDecoder': JSONDecoder is not a Bot class"),
])
def test_command_errors_name_the_option(capsys, argv, message):
    status, out, err = run(capsys, "arena", *argv, "--quiet")
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_a_crafted_policy_file_is_one_line_naming_it_with_worker_processes(tmp_path, capsys,
                                                                           case):
    path = write_crafted(tmp_path / "crafted.npz", CRAFTED[case][0])
    status, out, err = run(capsys, "arena", "--team-a", "rule", "--team-b", f"policy:{path}",
                           "--deals", "2", "--workers", "2", "--quiet")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"klaverjas: error: argument --team-b: policy file '{path}'")


def test_the_command_seats_a_bot_class_of_ones_own(capsys, monkeypatch):
    monkeypatch.syspath_prepend("examples")     # as PYTHONPATH=examples does
    status, out, _ = run(capsys, "arena", "--team-a", "highest_card_bot:HighestCard",
                         "--team-b", "rule", "--deals", "1", "--workers", "1", "--quiet")
    assert status == 0 and out.startswith("highest (a) against rule (b)")


def test_a_bot_of_ones_own_that_fails_in_a_worker_is_one_line_naming_it(tmp_path, capsys,
                                                                          monkeypatch):
    (tmp_path / "failing_bots.py").write_text(
        "from solver.bots import Bot\n"
        "class Failing(Bot):\n"
        "    name = 'failing'\n"
        "    def choose(self, game, seat):\n"
        "        raise RuntimeError('out of ideas')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    status, out, err = run(capsys, "arena", "--team-a", "failing_bots:Failing", "--team-b",
                           "rule", "--deals", "2", "--workers", "2", "--quiet")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("klaverjas: error: failing failed to choose a card for seat ")
    assert err.endswith(": RuntimeError: out of ideas\n")


def test_the_command_writes_the_page(tmp_path, capsys):
    page = tmp_path / "arena.html"
    status, out, _ = run(capsys, "arena", "--team-a", "rule", "--team-b", "random", "--deals",
                         "1", "--workers", "1", "--quiet", "--report", str(page))
    assert status == 0 and f"wrote {page}" in out
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_ctrl_c_stops_the_worker_processes_at_once():
    # The interrupt reaches the parent alone (as `kill -INT` sends it): the deals its workers
    # are playing must stop too, not run on to their end.
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "arena", "--team-a", "pimc:64",
                             "--team-b", "pimc:64", "--deals", "50", "--workers", "2",
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    workers = worker_pids(proc, 2)      # both are playing their first deals
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err == "klaverjas: interrupted\n" and out == ""
    assert survivors_after(workers) == []


def worker_pids(proc, count):
    """The pids of the `count` worker processes of `proc`, once it has started them all."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        found = worker_processes(proc.pid)
        if len(found) >= count:
            return found
        time.sleep(0.01)
    raise AssertionError(f"the arena did not start {count} workers")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_the_workers_end_with_their_parent_and_the_reader_sees_the_end(sig):
    # `klaverjas arena ... | jq`: the workers hold the parent's stdout, so a worker that
    # outlived its parent would leave the reader waiting for ever.
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli", "arena", "--team-a", "pimc:64",
                             "--team-b", "pimc:64", "--deals", "50", "--workers", "2",
                             "--json", "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    workers = worker_pids(proc, 2)
    os.kill(proc.pid, sig)      # the parent only, as `kill PID` does
    assert survivors_after(workers) == []
    out, _ = proc.communicate(timeout=30)       # end of output: nobody holds the pipe
    assert out == "" and proc.returncode == -sig


def test_a_worker_that_dies_is_one_clear_error(monkeypatch):
    from solver.arena import run as arena_run
    monkeypatch.setattr(arena_run, "_arena_work", worker_fakes.dying_arena)
    with pytest.raises(BotError, match="a worker process of the arena died"):
        play_arena("random", "rule", deals=4, workers=2)


# -- the page ----------------------------------------------------------------------------------

def test_the_page_has_both_charts_and_every_bar(rule_against_random):
    page = rule_against_random.to_html()
    assert page.count('data-chart="difference"') == 1 and page.count('data-chart="dd-by-trick"') == 1
    assert page.count("data-side=") == 16 and page.count("<script") == 0
    assert 'data-bar="score"' in page and 'data-interval="score"' in page


def test_jupyter_shows_the_charts_with_the_style(rule_against_random):
    shown = rule_against_random._repr_html_()
    assert shown.startswith("<style>") and 'class="kj"' in shown
    assert 'data-chart="dd-by-trick"' in shown


def test_the_page_refuses_what_is_not_an_arena_result():
    with pytest.raises(Exception, match="an arena result has no 'deals' field"):
        render_arena({})


def test_the_browser_draws_the_charts(browser, rule_against_random, tmp_path):
    from selenium.webdriver.common.by import By
    path = tmp_path / "arena.html"
    path.write_text(rule_against_random.to_html(), encoding="utf-8")
    browser.get(path.as_uri())
    for chart in ("difference", "dd-by-trick"):
        svg = browser.find_element(By.CSS_SELECTOR, f'svg[data-chart="{chart}"]')
        assert svg.is_displayed() and svg.size["width"] > 300
    bars = browser.find_elements(By.CSS_SELECTOR, 'svg[data-chart="dd-by-trick"] rect[data-side]')
    assert len(bars) == 16
    # Bars are as tall as their values, side by side: the larger loss has the taller bar.
    heights = {(b.get_attribute("data-side"), b.get_attribute("data-trick")): b.size["height"]
               for b in bars}
    losses = rule_against_random.bots
    for trick in range(1, 9):
        a, b = losses["a"].dd_loss_by_trick[trick - 1], losses["b"].dd_loss_by_trick[trick - 1]
        if abs(a - b) > 1:
            assert (heights[("a", str(trick))] > heights[("b", str(trick))]) == (a > b)
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width <= 1280


@pytest.mark.parametrize("rules", [{"contract": "ledig"}, {"players": 3}, {"players": 2}])
def test_the_arena_refuses_games_it_does_not_play_by_name(rules):
    from solver.errors import BotError
    option = next(iter(rules))
    with pytest.raises(BotError, match=f"trump game at a table of four: rules {option}="):
        play_arena("random", "random", deals=1, rules=rules, workers=1)
