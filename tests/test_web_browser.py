"""The analysis board in a real browser (headless Chromium, the `browser` fixture) against a
real server (`board_server`), driven as a player would, at 1280 and 390 px wide. The values
the page shows are checked against solve_moves at every step; no console error is allowed."""
import json
from pathlib import Path
from urllib.parse import urlencode

import pytest

from solver import (Deal, Game, GameRecord, Solver, analyse_bidding, solve_moves,
                    solve_table)
from solver.analysis.view import analyse_view_until
from solver.model.scoring import value_for_team

pytest.importorskip("fastapi")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "game.json"
RECORD = GameRecord.load(EXAMPLE)
MAIN = [str(c) for c in RECORD.played]
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}


@pytest.fixture(scope="module")
def page(browser, board_server):
    """The browser on the board, single dummy off unless a test turns it on."""
    url = board_server[0]
    browser.get(url + "/")
    browser.execute_script("localStorage.clear();"
                           "localStorage.setItem('klaverjas-board-single-dummy', 'off');")
    return browser, url


@pytest.fixture(autouse=True)
def no_console_errors(page):
    yield
    errors = [e for e in page[0].get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def wait(driver, condition, timeout=60):
    # The board draws itself anew on each answer: an element found in one look may be gone by
    # the next read, which is the same as not found yet.
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def css(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, selector)


def one(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.CSS_SELECTOR, selector)


def open_page(driver, url):
    driver.get(url)
    wait(driver, lambda d: d.execute_script("return document.body.dataset.ready === 'true'"))


def board_url(base, played=(), main=(), at=0, tab="board", **round_fields):
    fields = {"deal": RECORD.deal.to_pbn(), "trump": "S", "leader": "S", "playing": "EW",
              "rules": "amsterdam", "dealer": "E", **round_fields}
    if main:
        fields["main"] = " ".join(main)
    fields["line"] = " ".join(played or main)
    fields["at"] = str(at)
    return f"{base}/?{urlencode(fields)}#{tab}"


def wait_at(driver, at, total):
    wait(driver, lambda d: one(d, "#counter").text == f"{at} / {total}" and
         (css(d, ".hand-box.to-move .card.legal") or css(d, "#result b")))


def shown_values(driver):
    """{card: value} under the legal cards of the player to move, as the page shows them."""
    return {button.get_attribute("data-card"): int(button.find_element("css selector", ".v")
                                                    .get_attribute("data-value"))
            for button in css(driver, ".hand-box.to-move .card.legal")}


def expected_values(game: Game):
    values = solve_moves(game.deal, game.trump, game.leader, game.playing, game.rules,
                         list(game.played))
    return {str(c): value_for_team(v, game.to_move.team, game.playing) for c, v in values.items()}


def select(driver, selector, value):
    from selenium.webdriver.support.ui import Select
    Select(one(driver, selector)).select_by_value(value)


def at_phone_width(driver, on):
    if on:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    else:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def check_fits_a_phone(driver):
    """No sideways scrolling, cards large enough to tap, no number split over two lines."""
    assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE["width"]
    for card in css(driver, ".hand .card"):
        assert card.size["width"] >= 40 and card.size["height"] >= 44
    # A number may not wrap, and an inline one shows on one line.
    split = driver.execute_script("""
        return [...document.querySelectorAll('.card .v, td.num, .counter')].filter((e) => {
          const style = getComputedStyle(e);
          const line = parseFloat(style.lineHeight) || 20;
          return style.whiteSpace !== 'nowrap' ||
                 (style.display !== 'table-cell' && e.offsetHeight > 1.7 * line);
        }).map((e) => e.textContent);""")
    assert split == []


@pytest.mark.parametrize("phone", [False, True], ids=["1280px", "390px"])
def test_paste_a_deal_pick_trump_and_leader_and_click_through_a_round(page, phone):
    driver, base = page
    deal = Deal.random(11)
    at_phone_width(driver, phone)
    try:
        open_page(driver, base + "/")
        one(driver, "#paste").send_keys(deal.to_pbn(notation="nl"))     # the Dutch notation
        one(driver, "#paste-go").click()
        wait(driver, lambda d: "W" in one(d, "#deal-shown").text)
        select(driver, "#f-trump", "H")
        select(driver, "#f-leader", "E")
        select(driver, "#f-playing", "NS")
        one(driver, "#start").click()
        wait_at(driver, 0, 0)
        game = Game(deal, "H", "E", "NS")
        for number in range(32):
            shown = shown_values(driver)
            assert shown == expected_values(game), number
            best = max(shown.values())
            # Mostly the best card; now and then a card that loses, as players do.
            losing = [c for c, v in sorted(shown.items()) if v < best]
            card = losing[0] if number % 5 == 2 and losing else \
                sorted(c for c, v in shown.items() if v == best)[0]
            one(driver, f'.hand-box.to-move .card.legal[data-card="{card}"]').click()
            game.play(card)
            wait_at(driver, number + 1, number + 1)
        result = one(driver, "#result").text
        scores = game.final_scores()
        assert f"{scores['NS']}" in result and f"{scores['EW']}" in result
        if phone:
            check_fits_a_phone(driver)
    finally:
        at_phone_width(driver, False)


def test_ledig_and_a_table_of_three_from_the_rules_form(page):
    driver, base = page
    deal = Deal.random(3)
    open_page(driver, base + "/")
    one(driver, "#seed").clear()
    one(driver, "#seed").send_keys("3")
    one(driver, "#seed-go").click()
    wait(driver, lambda d: "W" in one(d, "#deal-shown").text)
    one(driver, "#rules-details summary").click()
    select(driver, '[data-rule="contract"]', "ledig")
    assert one(driver, "#f-bidder-box").is_displayed()
    assert one(driver, "#f-preset").get_attribute("value") == "custom"
    select(driver, "#f-bidder", "W")
    select(driver, "#f-leader", "N")
    one(driver, "#start").click()
    wait_at(driver, 0, 0)
    game = Game(deal, None, "N", None, {"contract": "ledig"}, bidder="W")
    values = solve_moves(deal, None, "N", None, {"contract": "ledig"}, bidder="W")
    assert shown_values(driver) == {str(c): value_for_team(v, game.to_move.team, game.playing)
                                    for c, v in values.items()}
    assert "bidder" in one(driver, '.hand-box[data-seat="W"] .seat-label').text
    one(driver, "#tab-setup").click()
    select(driver, '[data-rule="contract"]', "trump")
    select(driver, '[data-rule="players"]', "3")
    assert one(driver, "#f-dummy-box").is_displayed()
    select(driver, "#f-trump", "D")
    select(driver, "#f-playing", "EW")
    select(driver, "#f-dummy", "E")
    one(driver, "#start").click()
    wait(driver, lambda d: "dummy" in one(d, '.hand-box[data-seat="E"] .seat-label').text)
    wait_at(driver, 0, 0)
    game = Game(deal, "D", "N", "EW", {"players": 3}, dummy="E")
    values = Solver().move_values(game)
    assert shown_values(driver) == {str(c): value_for_team(v, game.to_move.team, game.playing)
                                    for c, v in values.items()}


def test_build_a_deal_by_clicking(page):
    driver, base = page
    deal = Deal.random(5)
    open_page(driver, base + "/")
    for seat in "NES":
        for card in deal[seat]:
            one(driver, f'[data-build-card="{card}"]').click()
    # A ninth card for a full seat is refused on the page, with a message.
    one(driver, '[data-build-seat="N"]').click()
    one(driver, f'[data-build-card="{deal["W"][0]}"]').click()
    assert "already holds 8 cards" in one(driver, "#message").text
    assert one(driver, '[data-build-seat="W"]').text.endswith("0/8")
    one(driver, "#build-rest").click()
    assert one(driver, "#build-status").get_attribute("class") == "status good"
    one(driver, "#build-go").click()
    wait(driver, lambda d: "W" in one(d, "#deal-shown").text)
    one(driver, "#start").click()
    wait_at(driver, 0, 0)
    assert driver.execute_script("return new URLSearchParams(location.search).get('deal')") == \
        deal.to_pbn()


def test_open_a_record_step_play_another_card_follow_perfect_play_and_return(page):
    driver, base = page
    from selenium.webdriver.common.keys import Keys
    open_page(driver, base + "/")
    one(driver, "#record-file").send_keys(str(EXAMPLE))
    wait_at(driver, 0, 32)
    assert "variation" not in one(driver, "#line-kind").get_attribute("class")
    for _ in range(5):
        one(driver, "body").send_keys(Keys.ARROW_RIGHT)
    wait_at(driver, 5, 32)
    game = RECORD.game()
    game.replay(MAIN[:5])
    assert shown_values(driver) == expected_values(game)
    other = sorted(c for c in shown_values(driver) if c != MAIN[5])[0]
    one(driver, f'.hand-box.to-move .card.legal[data-card="{other}"]').click()
    wait_at(driver, 6, 6)
    assert "variation" in one(driver, "#line-kind").get_attribute("class")
    assert one(driver, "#to-main").is_displayed()
    assert len(css(driver, "#moves .mv.variation")) == 1
    game.play(other)
    one(driver, "#perfect").click()
    wait_at(driver, 6, 32)
    assert len(css(driver, "#moves .mv.perfect")) == 26
    for step in range(3):
        one(driver, "#next").click()
        wait_at(driver, 7 + step, 32)
        card = css(driver, "#moves .mv.current")[0].find_element("css selector", "[data-card]") \
            .get_attribute("data-card")
        before = expected_values(game)
        assert before[card] == max(before.values())      # perfect play keeps the value
        game.play(card)
        assert shown_values(driver) == expected_values(game)
    one(driver, "#to-main").click()
    wait_at(driver, 5, 32)
    assert "variation" not in one(driver, "#line-kind").get_attribute("class")
    assert not one(driver, "#to-main").is_displayed()


def test_a_file_of_many_rounds_lists_them_and_a_move_of_the_play_jumps_there(page):
    driver, base = page
    path = ROOT / "examples" / "boom.jsonl"
    rounds = GameRecord.from_json_lines(path.read_text())
    open_page(driver, base + "/")
    one(driver, "#record-file").send_keys(str(path))
    wait(driver, lambda d: len(css(d, "[data-round]")) == len(rounds))
    one(driver, '[data-round="1"]').click()
    total = len(rounds[1].played)
    wait_at(driver, 0, total)
    one(driver, '#moves [data-move="6"]').click()
    wait_at(driver, 7, total)
    game = rounds[1].game()
    game.replay(rounds[1].played[:7])
    assert shown_values(driver) == expected_values(game)


def test_why_a_card_lost_shows_the_two_lines_parting(page):
    driver, base = page
    open_page(driver, board_url(base, main=MAIN, at=4))
    wait_at(driver, 4, 32)
    button = css(driver, "button[data-why]")[0]
    card = button.get_attribute("data-why")
    button.click()
    wait(driver, lambda d: one(d, "#why-box").is_displayed())
    parting = css(driver, "#why-lines tr.parts")
    assert len(parting) == 1
    lost, best = parting[0].find_elements("css selector", "td")
    assert lost.text != best.text
    assert one(driver, "#why-summary [data-card]").get_attribute("data-card") == card


def test_a_reloaded_url_gives_the_same_position(page):
    driver, base = page
    open_page(driver, board_url(base, main=MAIN, at=9))
    wait_at(driver, 9, 32)
    one(driver, "#next").click()
    wait_at(driver, 10, 32)
    values, url = shown_values(driver), driver.current_url
    open_page(driver, url)
    wait_at(driver, 10, 32)
    assert shown_values(driver) == values and driver.current_url == url
    game = RECORD.game()
    game.replay(MAIN[:10])
    assert values == expected_values(game)


@pytest.fixture
def page_engine(board_server):
    return (board_server[1],)


def test_the_single_dummy_table_fills_with_its_progress_bar(page, page_engine):
    driver, base = page
    driver.execute_script("localStorage.setItem('klaverjas-board-single-dummy', 'on')")
    try:
        open_page(driver, board_url(base, main=MAIN, at=1))
        wait_at(driver, 1, 32)
        box = one(driver, "#sd-worlds")
        box.clear()
        box.send_keys("32")
        one(driver, "h1").click()          # leaving the field changes it
        wait(driver, lambda d: one(d, "#sd-progress").get_attribute("value") == "32" and
             one(d, "#sd-progress").get_attribute("max") == "32")
        wait(driver, lambda d: css(d, "[data-verdict]") and not css(d, "td.pending"))
        game = RECORD.game()
        game.replay(MAIN[:1])
        view = analyse_view_until(game, lambda v: False, 8, 32, 0)
        for card, stats in view.cards.items():
            cell = one(driver, f'[data-card-row="{card}"] [data-sd-mean]')
            assert float(cell.get_attribute("data-sd-mean")) == pytest.approx(stats.mean)
        assert "32" in one(driver, "#sd-head").text
        # Moving on stops the job that is running: the server counts it stopped, not finished.
        engine = page_engine[0]
        assert engine.idle.wait(60)
        before = engine.counters()
        box = one(driver, "#sd-worlds")
        from selenium.webdriver.common.keys import Keys
        # Typed over, as a player does: clear() can fire a change of its own, whose job (at
        # the empty field's worlds) may finish before the test moves on.
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys("512")
        one(driver, "h1").click()
        wait(driver, lambda d: one(d, "#sd-progress").get_attribute("value") not in ("0", "32"))
        one(driver, "#next").click()                # the next position: its own job starts
        wait_at(driver, 2, 32)
        wait(driver, lambda d: one(d, "#sd-progress").get_attribute("value") != "0")
        one(driver, "#sd-on").click()               # and switching it off stops that one
        assert engine.idle.wait(60)

        def every_job_ended(_):
            # A request the page sent before the switch may still reach the server after the
            # engine was idle for a moment: wait until every job asked for has ended.
            now = engine.counters()
            return now["running"] == 0 and now["started"] == now["stopped"] + now["finished"]
        wait(driver, every_job_ended)
        after = engine.counters()
        started = after["started"] - before["started"]
        assert started >= 2 and after["stopped"] - before["stopped"] == started
        assert after["finished"] == before["finished"]
    finally:
        driver.execute_script("localStorage.setItem('klaverjas-board-single-dummy', 'off')")


def test_the_bid_tab_shows_the_table_and_the_verdict(page):
    driver, base = page
    open_page(driver, board_url(base, main=MAIN, tab="bid"))
    wait(driver, lambda d: css(d, '#dd-table table[data-table="EW"] td'))
    table = solve_table(RECORD.deal)
    cells = [td.text.rstrip("*").replace("−", "-").lstrip("+")
             for td in css(driver, '#dd-table table[data-table="EW"] td')]
    assert [int(c) for c in cells] == [table.value(s, p, "EW") for s in "SHDC" for p in "NESW"]
    select(driver, "#b-procedure", "free")
    select(driver, "#b-seat", "W")
    select(driver, "#b-trump", "S")
    box = one(driver, "#b-worlds")
    box.clear()
    box.send_keys("0")
    one(driver, "#bid-go").click()
    expected = analyse_bidding(RECORD.deal, "E", procedure="free", bid=("W", "S")).verdict()
    wait(driver, lambda d: one(d, "#bid-verdict").text == expected)


def test_switch_to_dutch_and_it_is_remembered(page):
    driver, base = page
    open_page(driver, board_url(base, main=MAIN, at=0))
    wait_at(driver, 0, 32)
    select(driver, "#lang", "nl")
    try:
        wait(driver, lambda d: one(d, "#tab-board").text == "Bord")
        assert one(driver, '.hand-box [data-card="SJ"] .face').text == "♠B"
        assert one(driver, '.hand-box [data-card="HQ"] .face').text == "♥V"
        assert one(driver, '.hand-box [data-card="SK"] .face').text == "♠H"
        open_page(driver, driver.current_url)
        wait_at(driver, 0, 32)
        assert one(driver, "#tab-board").text == "Bord"
        assert one(driver, "html").get_attribute("lang") == "nl"
    finally:
        select(driver, "#lang", "en")


def test_a_record_with_html_in_its_names_runs_nothing(page, tmp_path):
    driver, base = page
    names = {"N": "<script>window.__pwned = 1</script>",
             "E": '"><img src=x onerror="window.__pwned = 2">',
             "S": "<b onmouseover=alert(1)>Sam</b>", "W": "Wim & 'Co'"}
    record = {**json.loads(EXAMPLE.read_text()), "players": names}
    path = tmp_path / "names.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    open_page(driver, base + "/")
    one(driver, "#record-file").send_keys(str(path))
    wait_at(driver, 0, 32)
    shown = [e.text for e in css(driver, ".seat-label .player")]
    assert sorted(shown) == sorted(names.values())
    assert driver.execute_script("return window.__pwned") is None
    assert css(driver, "main img") == [] and css(driver, "main b[onmouseover]") == []
    open_page(driver, driver.current_url)          # the names travel in the URL too
    wait_at(driver, 0, 32)
    assert driver.execute_script("return window.__pwned") is None


def test_bad_input_gets_the_message_on_the_page(page):
    driver, base = page
    open_page(driver, base + "/")
    one(driver, "#paste").send_keys("N:AKQ")
    one(driver, "#paste-go").click()
    wait(driver, lambda d: one(d, "#message").is_displayed())
    with pytest.raises(Exception) as err:
        Deal.from_pbn("N:AKQ")
    assert one(driver, "#message").text == str(err.value)
    # The refused request is the one entry of the browser's log.
    log = driver.get_log("browser")
    assert all("400" in e["message"] for e in log if e["level"] == "SEVERE")


def test_every_page_fits_a_phone(page):
    driver, base = page
    at_phone_width(driver, True)
    try:
        for tab in ("setup", "board", "bid"):
            open_page(driver, board_url(base, main=MAIN, at=9, tab=tab))
            if tab == "board":
                wait_at(driver, 9, 32)
                css(driver, "button[data-why]")[0].click()
                wait(driver, lambda d: css(d, "#why-lines tr.parts"))
                check_fits_a_phone(driver)
            elif tab == "bid":
                wait(driver, lambda d: css(d, "#dd-table td"))
            assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
    finally:
        at_phone_width(driver, False)
