"""The HTML report and the rich output in Jupyter: testable markup, losses equal to
analyse_play's, and a real browser that shows and steps through the page."""
import ast
import dataclasses
import json
import re
import subprocess
import sys
import zlib
from fnmatch import fnmatch
from importlib import resources
from pathlib import Path

import pytest

from solver import (Deal, GameRecord, Rules, Seat, Solver, SolverError, Suit, Team,
                    analyse_bidding, analyse_play, solve, solve_table)
from solver.cli import main
from solver.html import render
from solver.html.pieces import asset, points_so_far, rules_in_words

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "game.json"
DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")
ASSETS = ("report.css", "page.css", "replay.js")


def report(record: GameRecord, notation: str = "en") -> str:
    """The page of a record, computed the way `klaverjas report` does."""
    return render(analyse_play(record), solve_table(record.deal, record.rules),
                  Solver(record.rules).value(record.game(), "score"), notation=notation)


@pytest.fixture(scope="module")
def analysis():
    return analyse_play(GameRecord.load(EXAMPLE))


@pytest.fixture(scope="module")
def table(analysis):
    return solve_table(analysis.record.deal, analysis.record.rules)


@pytest.fixture(scope="module")
def page():
    return report(GameRecord.load(EXAMPLE))


def test_the_page_is_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "<script src" not in page and "<link" not in page


def test_every_trick_and_card_is_marked(page):
    assert len(re.findall(r'data-trick="(\d)"', page)) == 8
    assert set(re.findall(r'data-trick="(\d)"', page)) == {str(i) for i in range(1, 9)}
    deal_section = page.split("<section")[1]
    assert len(re.findall(r'data-card="[CDHS][789TJQKA]"', deal_section)) == 32
    assert re.search(r"<svg data-chart=", page)


def test_the_losses_in_the_page_equal_analyse_play(page, analysis):
    marked = [int(x) for x in re.findall(r'data-loss="(-?\d+)" data-seat', page)]
    assert marked == [step.loss for step in analysis.steps]


def test_the_page_shows_the_rules_the_table_and_the_result(page, analysis):
    assert rules_in_words(Rules.amsterdam()) in page
    assert "EW chose" in page and "not makeable (-2)" in page
    assert "Score: EW 179, NS 43 (made)" in page
    assert 'data-table="dd"' in page


def test_report_command_writes_the_page(tmp_path, capsys):
    out = tmp_path / "deal.html"
    assert main(["report", str(EXAMPLE), "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert out.read_text(encoding="utf-8").count('data-trick="') == 8


def test_an_illegal_card_is_shown(tmp_path):
    record = GameRecord.from_dict({"deal": DEAL.to_pbn(), "dealer": "E", "trump": "S",
                                   "playing": "EW", "played": "SK HT"})
    page = report(record)
    assert "Illegal card (verzaken)" in page and "revoke" in page


# W revokes in trick 3 (♣A, holding ♦J); two more cards are recorded after it.
REVOKE = GameRecord.from_dict({"deal": DEAL.to_pbn(), "dealer": "E", "trump": "S", "playing": "EW",
                               "played": "SK S9 SA SJ HJ HA HT H9 DA CA D9 DK"})


def test_a_revoke_is_marked_in_its_trick_and_the_rest_is_not_analysed():
    tricks = report(REVOKE).split("<h2>Tricks</h2>")[1].split("</section>")[0]
    third = tricks.split('data-trick="3"')[1]
    assert re.search(r'class="card black illegal" data-card="CA" data-illegal="follow suit"', third)
    assert 'data-card="DA" data-loss=' in third       # the card before it, judged
    assert 'data-not-analysed="2"' in third
    assert re.findall(r'class="card red not-analysed" data-card="(\w+)"', third) == ["D9", "DK"]


def test_the_replay_steps_to_the_revoke_and_its_counter_and_notes_agree():
    from solver.html.page import replay_data
    data = replay_data(analyse_play(REVOKE))
    total = len(data["played"])
    assert data["played"][-1] == "CA" and total == 10 == len(data["steps"])
    for shown, step in enumerate(data["steps"]):
        assert step["note"].startswith(f"{shown} of {total} cards played: ")
    assert "illegal" in data["steps"][-1]["cards"]["CA"] and "revoke" in data["steps"][-1]["note"]
    assert data["end"].startswith(f"{total} of {total} cards played: the round ends at the revoke")
    assert "2 later cards are not analysed" in data["end"]


# -- what render takes ---------------------------------------------------------------------------

def test_the_replay_note_names_the_card_about_to_be_played_in_the_present(page):
    steps = json.loads(re.search(r'id="report-data">(.*?)</script>', page).group(1)
                       .replace("<\\/", "</"))["steps"]
    first = re.sub(r"<[^>]+>", "", steps[0]["note"])     # the note's text, as the page shows it
    assert first.startswith("0 of 32 cards played: S to play (values for NS); S plays ♠K next, "
                            "which loses 20")
    assert "played ♠K" not in first


def test_a_ledig_report_says_which_way_the_tricks_went():
    # NS's ♦J gave the bidder a trick; EW's cards cost nothing, so EW is not named.
    page = report(GameRecord.load(ROOT / "examples" / "ledig.json"))
    assert "<p>Against best play, NS gave the bidder 1 trick more.</p>" in page
    assert "0 tricks" not in page and "let the bidder take" not in page
    assert "lost 1 trick" not in page and "Tricks given away" not in page


def test_a_ledig_report_with_no_loss_says_so():
    from solver.html.page import ledig_result_html
    record = GameRecord.load(ROOT / "examples" / "ledig.json")
    perfect = analyse_play(record)
    perfect = dataclasses.replace(perfect, steps=[dataclasses.replace(s, loss=0)
                                                  for s in perfect.steps])
    assert "<p>Against best play, no card cost anything.</p>" in ledig_result_html(perfect, 0)
    assert "Tegen beste spel kostte geen kaart iets." in ledig_result_html(perfect, 0, "nl")


def test_a_dutch_report_shows_dutch_cards_and_labels(analysis, table):
    record = analysis.record
    page = render(analysis, table, Solver(record.rules).value(record.game(), "score"),
                  notation="nl")
    assert '<html lang="nl">' in page and "<h2>Slagen</h2>" in page and "Naspelen" in page
    assert 'data-card="SK"' in page and ">♠H<" in page and ">♠K<" not in page
    assert "slag 1: S komt uit" in page and "troef \\ uitkomst" in page


def test_a_dutch_ledig_report_says_its_result_in_dutch():
    page = report(GameRecord.load(ROOT / "examples" / "ledig.json"), "nl")
    assert "bieder \\ uitkomst" in page and "Slagen: NS" in page and "Tegen beste spel gaf" in page
    assert "took" not in page.split('id="report-data"')[0]


def test_render_names_an_argument_of_the_wrong_type(analysis, table):
    with pytest.raises(SolverError, match="^analysis must be a PlayAnalysis"):
        render(None, table, 0)
    with pytest.raises(SolverError, match="^table must be a DDTable"):
        render(analysis, None, 0)
    with pytest.raises(SolverError, match="^dd_score must be a whole number"):
        render(analysis, table, None)
    with pytest.raises(TypeError):
        render(analysis)   # the table and the score are the caller's to compute


def test_render_refuses_the_table_of_another_deal(analysis):
    with pytest.raises(SolverError, match="^table is of another deal"):
        render(analysis, solve_table(Deal.random(3), analysis.record.rules), 0)


def test_the_page_shows_the_double_dummy_score_it_is_given(analysis, table):
    assert "score -182." in render(analysis, table, -182)
    assert "score +7." in render(analysis, table, 7)


# -- the chart's second line is the points objective so far ------------------------------------------

def final_points_value(record: GameRecord) -> int:
    """The double-dummy value after the last card: the `points` value of the finished round."""
    return analyse_play(record).steps[-1].value_after


def test_points_so_far_end_at_the_points_value_with_table_roem():
    record = GameRecord.load(EXAMPLE)
    assert points_so_far(record, record.played)[-1] == final_points_value(record) == 179 - 43


def test_points_so_far_count_hand_roem_from_the_first_card():
    # S holds the trump K and Q (stuk, 20 for NS); W holds CA CK CQ CJ (50 for EW).
    data = json.loads(EXAMPLE.read_text()) | {"rules": {"roem": "hand", "trump_duty": "amsterdam"}}
    record = GameRecord.from_dict(data)
    so_far = points_so_far(record, record.played)
    assert so_far[0] == 50 - 20
    assert so_far[-1] == final_points_value(record)


def test_points_so_far_count_the_pit():
    # N holds every trump: NS take all 8 tricks whatever is played.
    deal = Deal.from_pbn("N:AKQJT987... ..AKQJT987. .AKQJT987.. ...AKQJT987")
    record = GameRecord(deal, Suit.S, Seat.E, Team.NS, Rules())
    game = record.game()
    while not game.is_over:
        game.play(game.legal_cards()[0])
    record = GameRecord(deal, Suit.S, Seat.E, Team.NS, Rules(), tuple(game.played))
    so_far = points_so_far(record, record.played)
    assert so_far[-1] == 162 + 100 + game.tally(Team.NS).roem == final_points_value(record)
    assert so_far[-2] == so_far[-1] - 100 - game.tricks[-1].points - game.tricks[-1].roem


def test_the_chart_legend_says_what_the_second_line_is(page):
    assert "points so far, EW less NS (cards, roem, pit)" in page


# -- the layer: presentation only ------------------------------------------------------------------

LOWER_LAYERS_ONLY = """
import importlib.util, sys, types
# Import solver.html without running solver/__init__.py, which imports every layer.
spec = importlib.util.find_spec("solver")
package = types.ModuleType("solver")
package.__path__ = list(spec.submodule_search_locations)
sys.modules["solver"] = package
import solver.html
print(" ".join(sorted(name for name in sys.modules if name.startswith("solver."))))
"""
UPPER_LAYERS = ("solver.engine", "solver.analysis", "solver.labels", "solver.cli")


def test_importing_solver_html_imports_only_the_model_and_the_errors():
    out = subprocess.run([sys.executable, "-c", LOWER_LAYERS_ONLY], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split()
    assert "solver.html" in out and "solver.model" in out
    assert [name for name in out if name.startswith(UPPER_LAYERS)] == []


def test_render_and_the_jupyter_hooks_solve_nothing(monkeypatch, analysis, table):
    result = solve(DEAL, "S", "S", "EW")
    bids = analyse_bidding(DEAL, "W", procedure="free", bid=("N", "H"))
    for name in list(sys.modules):
        if name.startswith(UPPER_LAYERS) or name in UPPER_LAYERS:
            monkeypatch.setitem(sys.modules, name, None)   # importing it now raises
    assert render(analysis, table, -182).count('data-trick="') == 8
    for obj in (DEAL, result, table, analysis, bids):
        assert 'class="kj"' in obj._repr_html_()


def test_the_assets_load_from_the_package():
    folder = resources.files("solver.html")
    assert sorted(p.name for p in folder.iterdir() if p.name.endswith((".css", ".js"))) == sorted(ASSETS)
    for name in ASSETS:
        assert asset(name) == folder.joinpath(name).read_text(encoding="utf-8") != ""


def test_the_assets_ship_as_package_data():
    line = re.search(r'^"solver\.html" = (\[.*\])$', (ROOT / "pyproject.toml").read_text(), re.M)
    patterns = ast.literal_eval(line.group(1))
    for name in ASSETS:
        assert any(fnmatch(name, p) for p in patterns), name


def test_the_page_inlines_the_assets(page):
    assert asset("page.css") in page and asset("report.css") in page and asset("replay.js") in page


def test_the_replay_script_only_places_cards_python_rendered(page):
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1))
    assert sorted(data["cards"]) == sorted(str(c) for seat in Seat for c in DEAL[seat])
    assert data["cards"]["HA"] == '<span class="card red" data-card="HA">♥A</span>'
    first = data["steps"][0]
    assert first["seat"] == "S" and first["cards"]["SK"].startswith('<span class="card black loss"')
    assert "data-card" not in asset("replay.js") and "class=\"card" not in asset("replay.js")


# -- Jupyter and the REPL ------------------------------------------------------------------------

def test_results_have_html_and_short_reprs(analysis):
    result = solve(DEAL, "S", "S", "EW")
    table = solve_table(DEAL)
    bids = analyse_bidding(DEAL, "W", procedure="free", bid=("N", "H"))
    for obj in (DEAL, result, table, analysis, bids):
        assert 'data-card="' in obj._repr_html_() or "<table" in obj._repr_html_()
        assert len(repr(obj)) < 400 and "Card.parse" not in repr(obj)
    assert "line='HA HT HQ HJ" in repr(result)


def test_enums_print_as_letters():
    assert str(Seat.S) == "S" and str(Suit.H) == "H" and str(Team.EW) == "EW"
    assert f"{Seat.W}{Suit.C}" == "WC"


# -- a real browser (the `browser` fixture of conftest.py) -----------------------------------------

@pytest.fixture(scope="module")
def opened(browser, page, tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "deal.html"
    path.write_text(page, encoding="utf-8")
    browser.get(path.as_uri())
    return browser


def png_is_blank(png: bytes) -> bool:
    """Whether a PNG's pixels are (nearly) all one colour."""
    data, pos = b"", 8
    while pos < len(png):
        length = int.from_bytes(png[pos:pos + 4], "big")
        if png[pos + 4:pos + 8] == b"IDAT":
            data += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(data))) < 16


def test_the_browser_shows_32_cards_8_tricks_and_the_chart(opened):
    from selenium.webdriver.common.by import By
    deal = opened.find_elements(By.CSS_SELECTOR, "section:first-of-type [data-card]")
    assert len([c for c in deal if c.is_displayed()]) == 32
    assert len(opened.find_elements(By.CSS_SELECTOR, "[data-trick]")) == 8
    assert opened.find_element(By.CSS_SELECTOR, "svg[data-chart]").is_displayed()


def test_next_changes_the_position_and_the_arrow_keys_step(opened):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    replay = opened.find_element(By.ID, "replay")
    before = replay.get_attribute("innerHTML")
    opened.find_element(By.ID, "next").click()
    assert replay.get_attribute("innerHTML") != before
    assert opened.find_element(By.ID, "step-count").text == "1 / 32"
    opened.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert opened.find_element(By.ID, "step-count").text == "2 / 32"
    opened.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
    assert opened.find_element(By.ID, "step-count").text == "1 / 32"


def test_no_console_errors(opened):
    errors = [e for e in opened.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_a_screenshot_is_not_blank(opened):
    assert not png_is_blank(opened.get_screenshot_as_png())


# Every cell of the page's tables whose text runs over more than one line: the tops of the
# text's boxes differ.
SPLIT_CELLS = """
return [...document.querySelectorAll("table.grid td, table.grid th")].filter((cell) => {
  const range = document.createRange();
  range.selectNodeContents(cell);
  const tops = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
  return tops.size > 1;
}).map((cell) => cell.textContent);
"""


# The pages a phone is shown: the example, and a ledig round in the Dutch notation (longer
# labels, the ledig table).
PHONE_PAGES = {"game": (EXAMPLE, "en"), "ledig in nl": (ROOT / "examples" / "ledig.json", "nl")}


@pytest.fixture(params=PHONE_PAGES)
def at_phone_width(request, browser, tmp_path):
    """A report in a phone's viewport, 390 px wide."""
    path, notation = PHONE_PAGES[request.param]
    out = tmp_path / "page.html"
    out.write_text(report(GameRecord.load(path), notation), encoding="utf-8")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(out.as_uri())
        yield browser
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_no_horizontal_overflow_at_phone_width(at_phone_width):
    assert at_phone_width.execute_script("return document.documentElement.scrollWidth") <= 390


def test_no_number_splits_across_lines_at_phone_width(at_phone_width):
    assert at_phone_width.execute_script("return document.querySelectorAll('table.grid td')"
                                         ".length") > 0
    assert at_phone_width.execute_script(SPLIT_CELLS) == []


def test_no_number_splits_over_two_lines_at_phone_width(opened):
    opened.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        opened.refresh()
        split = opened.execute_script("""
            return [...document.querySelectorAll('td, th')].filter((e) => /\\d/.test(e.textContent)
                && e.offsetHeight > 1.7 * (parseFloat(getComputedStyle(e).lineHeight) || 20))
                .map((e) => e.textContent);""")
        assert split == []
        assert opened.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        opened.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_replay_shows_a_revoke_on_the_table_with_counter_and_note_agreeing(browser, tmp_path):
    from selenium.webdriver.common.by import By
    path = tmp_path / "revoke.html"
    path.write_text(report(REVOKE), encoding="utf-8")
    browser.get(path.as_uri())
    for _ in range(10):
        browser.find_element(By.ID, "next").click()
    assert browser.find_element(By.ID, "step-count").text == "10 / 10"
    assert browser.find_element(By.ID, "step-note").text.startswith("10 of 10 cards played")
    table = browser.find_element(By.CSS_SELECTOR, "#replay .middle")
    assert table.find_element(By.CSS_SELECTOR, '[data-card="CA"]').get_attribute("class") == \
        "card black illegal"
    browser.find_element(By.ID, "prev").click()
    assert browser.find_element(By.ID, "step-note").text.startswith("9 of 10 cards played")


@pytest.mark.parametrize("changes, dutch", [
    ({"players": {"N": "Anna", "E": "Bob", "S": "Cor", "W": "Dirk"}},
     ["Spelers: N Anna, E Bob, S Cor, W Dirk.", "Per speler: Bob (E, speelt) 179",
      "Anna (N, verdediger) 43"]),
    ({"rules": {"players": 3}, "dummy": "E"},
     ["Drie spelers: W speelt W en de blinde, E (de stille partner); N en S verdedigen.",
      "Per speler: W (kiezer, met blinde E) 179"]),
    ({"rules": {"players": 2}},
     ["Twee spelers: EW heeft E en W; NS heeft N en S.", "E (heeft E en W) 179"]),
])
def test_a_dutch_report_names_the_players_in_dutch(changes, dutch):
    data = {**json.loads(EXAMPLE.read_text()), **changes}
    page = report(GameRecord.from_dict(data), "nl")
    for words in dutch:
        assert words in page
    shown = page.split('id="report-data"')[0]
    assert "Players" not in shown and "Per player" not in shown and "(defender)" not in shown


@pytest.mark.parametrize("changes", [
    {}, {"trump_duty": "rotterdam", "undertrump": "must", "roem": "hand", "stuk": "hand",
         "pit": "playing", "nat": "82"},
    {"undertrump": "free", "roem": "none", "pit": "none", "nat": "none"},
    {"contract": "ledig", "ledig_trump": "none"}, {"contract": "ledig", "ledig_trump": "chosen"},
])
def test_the_rules_are_said_in_dutch_on_a_dutch_page(changes):
    rules = Rules.amsterdam().replace(**changes)
    english, dutch = rules_in_words(rules), rules_in_words(rules, "nl")
    shared = set(english.rstrip(".").split("; ")) & set(dutch.rstrip(".").split("; "))
    assert not shared, shared


def test_a_dutch_report_of_three_judged_single_dummy_has_dutch_legends():
    data = {**json.loads(EXAMPLE.read_text()), "rules": {"players": 3}, "dummy": "E"}
    record = GameRecord.from_dict(data)
    page = render(analyse_play(record, worlds=4), solve_table(record.deal, record.rules),
                  Solver(record.rules).value(record.game(), "score"), notation="nl")
    shown = page.split('id="report-data"')[0]
    assert "De hand van de blinde (E) ligt" in shown and "werelden die de speler" in shown
    assert "outlined" not in shown and "is shown" not in shown
