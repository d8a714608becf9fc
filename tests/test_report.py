"""The HTML report and the rich output in Jupyter: testable markup, losses equal to
analyse_play's, and a real browser that shows and steps through the page."""
import os
import re
import shutil
import zlib
from pathlib import Path

import pytest

from solver import (Deal, GameRecord, Rules, Seat, Suit, Team, analyse_bidding, analyse_play,
                    solve, solve_table)
from solver.cli import main
from solver.html.report import render, rules_in_words

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "game.json"
DEAL = Deal.from_pbn("N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ")


@pytest.fixture(scope="module")
def analysis():
    return analyse_play(GameRecord.load(EXAMPLE))


@pytest.fixture(scope="module")
def page(analysis):
    return render(analysis)


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
    page = render(analyse_play(record))
    assert "Illegal card (verzaken)" in page and "revoke" in page


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


# -- a real browser --------------------------------------------------------------------------------

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    reason = None
    if not (CHROMIUM and DRIVER):
        reason = "Chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
    else:
        try:
            import selenium  # noqa: F401
        except ImportError:
            reason = "selenium is not installed"
    if reason:
        if os.environ.get("KLAVERJAS_REQUIRE_BROWSER"):
            pytest.fail(f"KLAVERJAS_REQUIRE_BROWSER is set but {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


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


def test_no_horizontal_overflow_at_phone_width(opened):
    opened.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        opened.refresh()
        width = opened.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390
    finally:
        opened.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
