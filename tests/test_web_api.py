"""The board's JSON API (solver.web) through FastAPI's TestClient: values equal the solver's,
errors are the package's messages as JSON, the page's files are local and guarded by a
Content-Security-Policy, and a single-dummy job stops when its reader goes away."""
import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

fastapi = pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from fastapi.testclient import TestClient  # noqa: E402

from solver import (Deal, Game, GameRecord, Rules, Solver, SolverError,  # noqa: E402
                    analyse_bidding, solve_moves, solve_table)
from solver import web  # noqa: E402
from solver.analysis.verdicts import VERDICTS  # noqa: E402
from solver.analysis.view import analyse_view_until  # noqa: E402
from solver.cli.serve import exposure_note, is_loopback, listening_socket  # noqa: E402
from solver.cli.parser import UsageError  # noqa: E402
from solver.model.scoring import value_for_team  # noqa: E402
from solver.web import create_app  # noqa: E402
from solver.web.app import CONTENT_SECURITY_POLICY, MOST_BODY  # noqa: E402
from solver.web.engine import Engine  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "game.json"
# The page's files as imported: on an installed wheel, those the wheel shipped.
STATIC = Path(web.__file__).resolve().parent / "static"
RECORD = GameRecord.load(EXAMPLE)
ROUND = {"deal": RECORD.deal.to_pbn(), "trump": "S", "leader": RECORD.leader.name,
         "playing": "EW", "rules": "amsterdam"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Engine(clicks=2, long_work=2)), raise_server_exceptions=False) as c:
        yield c


def position(**changes):
    return {**ROUND, **changes}


def mover_values(game: Game):
    """solve_moves for the position of `game`, from the side to move."""
    values = solve_moves(game.deal, game.trump, game.leader, game.playing, game.rules,
                         list(game.played))
    return {str(c): value_for_team(v, game.to_move.team, game.playing) for c, v in values.items()}


def test_every_position_of_the_record_has_solve_moves_values_and_the_chart_follows(client):
    played = [str(c) for c in RECORD.played]
    answer = client.post("/api/position", json=position(played=played, at=0)).json()
    assert len(answer["chart"]) == 33 and len(answer["line"]) == 32
    game = RECORD.game()
    for at in range(32):
        board = client.post("/api/position", json=position(played=played, at=at)).json()
        assert board["values"] == mover_values(game), at
        best = max(board["values"].values())
        assert set(board["best"]) == {c for c, v in board["values"].items() if v == best}
        assert board["to_move"] == game.to_move.name and board["at"] == at
        assert board["chart"] == answer["chart"]
        game.play(played[at])
    end = client.post("/api/position", json=position(played=played)).json()
    assert end["over"] and end["result"]["scores"] == RECORD.scores().to_dict()
    assert end["chart"][-1] == game.objective_value("points")
    assert end["tallies"]["EW"]["total"] == game.tally("EW").total


@pytest.mark.parametrize("record", [
    GameRecord.load(ROOT / "examples" / "ledig.json"),
    GameRecord.from_dict({**json.loads(EXAMPLE.read_text()), "dummy": "E",
                          "rules": {"players": 3}}),
    GameRecord.from_dict({**json.loads(EXAMPLE.read_text()), "rules": {"players": 2}})],
    ids=["ledig", "three players", "two players"])
def test_ledig_and_tables_of_three_and_two_have_the_solvers_values(client, record):
    text = json.dumps(record.to_dict())
    opened = client.post("/api/record", json={"text": text}).json()["rounds"][0]
    opened.pop("dealer")
    opened.pop("players")
    assert opened["bidder"] == (None if record.bidder is None else record.bidder.name)
    assert opened["dummy"] == (None if record.dummy is None else record.dummy.name)
    solver = Solver(record.rules)
    game = record.game()
    for at in range(0, 32, 5):
        board = client.post("/api/position", json={**opened, "at": at}).json()
        while len(game.played) < at:
            game.play(record.played[len(game.played)])
        values = solver.move_values(game)
        assert board["values"] == {str(c): value_for_team(v, game.to_move.team, game.playing)
                                   for c, v in values.items()}
        assert board["unit"] == ("points" if record.bidder is None else "tricks")
    end = client.post("/api/position", json=opened).json()
    assert end["result"]["scores"] == record.scores().to_dict()


def test_the_cache_of_solved_positions_is_bounded_and_each_thread_keeps_its_solver():
    engine = Engine(clicks=1, long_work=1, cache_positions=3)
    game = RECORD.game()
    for card in RECORD.played[:6]:
        assert engine.move_values(game) == solve_moves(game.deal, "S", "S", "EW",
                                                       played=list(game.played))
        game.play(card)
    assert engine.cached_positions == 3
    solvers = {engine.clicks.submit(engine.solver).result() for _ in range(3)}
    assert len(solvers) == 1 and engine.solver() not in solvers
    engine.close()


def test_errors_are_the_packages_messages_as_json(client):
    def error(path, body, status=400):
        answer = client.post(path, json=body)
        assert answer.status_code == status, answer.text
        assert set(answer.json()) == {"error"}
        return answer.json()["error"]

    def message(call):
        with pytest.raises(SolverError) as err:
            call()
        return str(err.value)

    assert error("/api/position", position(deal="N:AKQ")) == message(lambda: Deal.from_pbn("N:AKQ"))
    game = RECORD.game()
    assert error("/api/position", position(played=["SK", "HA"])) == \
        message(lambda: game.replay(["SK", "HA"]))
    assert error("/api/position", position(rules={"pit_bonus": 5000})) == \
        message(lambda: Rules(pit_bonus=5000))
    assert error("/api/record", {"text": '{"deal": "N:"}'}) == \
        message(lambda: GameRecord.from_json('{"deal": "N:"}'))
    assert "played" in error("/api/position", position(played="SK"), 422)
    assert error("/api/deal", {"seed": 1, "text": "N:"}).startswith("give the deal's text or a seed")
    assert client.get("/api/nothing").json() == {"error": "Not Found"}


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    answer = client.post("/api/record", content=b"{" + b" " * (MOST_BODY + 1) + b"}",
                         headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "larger than" in answer.json()["error"]


def test_the_page_is_served_from_the_package_under_a_strict_policy(client):
    page = client.get("/")
    assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "unsafe-inline" not in CONTENT_SECURITY_POLICY
    html = page.text
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "no inline script"
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), "nothing from the network"
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
        answer = client.get(asset)
        assert answer.status_code == 200, asset
        text = answer.text.replace('"http://www.w3.org/2000/svg"', "")    # a name, not a fetch
        assert "http://" not in text and "https://" not in text and "//cdn" not in text
    script = client.get("/static/board.js").text
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script
    assert client.get("/openapi.json").json()["paths"]["/api/position"]


def test_every_file_of_the_page_ships_as_package_data():
    from fnmatch import fnmatch
    import ast
    line = re.search(r'^"solver\.web" = (\[.*\])$', (ROOT / "pyproject.toml").read_text(), re.M)
    patterns = ast.literal_eval(line.group(1))
    files = [f"static/{path.name}" for path in STATIC.iterdir()]
    assert len(files) == 4
    for name in files:
        assert any(fnmatch(name, p) for p in patterns), name
    assert '"solver.web"' in re.search(r"^packages = \[[^\]]*\]", (ROOT / "pyproject.toml")
                                       .read_text(), re.M).group(0)


def test_the_page_has_every_word_in_english_and_in_dutch():
    words = (STATIC / "words.js").read_text(encoding="utf-8")
    english, dutch = words.split("\n  en: {")[1].split("\n  nl: {")
    keys = [set(re.findall(r"^\s+(\w+):|, (\w+):", part, re.M)) for part in (english, dutch)]
    en, nl = ({k for pair in found for k in pair if k} for found in keys)
    assert en == nl and len(en) > 150
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert set(re.findall(r'data-t="(\w+)"', page)) <= en
    script = (STATIC / "board.js").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\("(\w+)"', script))
    assert {k for k in used if not k.endswith("_")} <= en
    # The words made of a prefix and a value: every seat, suit and verdict, every rules option
    # and each of its values (a new option needs its words).
    options = GameRecord.json_schema()["$defs"]["rules"]["anyOf"][1]["properties"]
    made = ({f"seat_{s}" for s in "NESW"} | {f"suit_{s}" for s in "SHDC"} |
            {f"verdict_{v}" for v in VERDICTS} |
            {f"rule_{name}" for name in options} |
            {f"value_{v}" for o in options.values() for v in o.get("enum", [])})
    assert made <= en


def test_a_record_file_lists_its_rounds(client):
    one = client.post("/api/record", json={"text": EXAMPLE.read_text()}).json()["rounds"]
    assert len(one) == 1 and one[0]["played"] == [str(c) for c in RECORD.played]
    assert one[0]["dealer"] == "E" and one[0]["deal"] == RECORD.deal.to_pbn()
    lines = (ROOT / "examples" / "boom.jsonl").read_text()
    many = client.post("/api/record", json={"text": lines}).json()["rounds"]
    assert len(many) == len(GameRecord.from_json_lines(lines)) > 1


def test_a_deal_is_read_in_either_notation_or_dealt_by_seed(client):
    deal = RECORD.deal
    for text in (deal.to_pbn(), deal.to_pbn(notation="nl"), deal.to_text().replace("\n", " ")):
        if not text.startswith("N:"):
            continue
        assert client.post("/api/deal", json={"text": text}).json()["deal"] == deal.to_pbn()
    assert client.post("/api/deal", json={"seed": 7}).json()["deal"] == Deal.random(7).to_pbn()


def test_why_shows_where_the_lines_part_and_what_moved_adds_up_to_the_loss(client):
    played = ["SK"]
    board = client.post("/api/position", json=position(played=played)).json()
    for at, card in enumerate(RECORD.played[1:12], start=1):
        board = client.post("/api/position", json=position(played=played)).json()
        top = max(board["values"].values())
        for lost, value in board["values"].items():
            if value < top:
                answer = client.post("/api/why", json=position(played=played, card=lost)).json()
                assert answer["loss"] == top - value
                assert answer["parts_at"] is not None
                moved = answer["moved"]
                assert sum(v for k, v in moved.items() if k != "tricks") == answer["loss"]
                assert answer["card"]["line"][0] == lost
                assert answer["best"]["line"][0] in board["best"]
        played.append(str(card))


def test_perfect_play_is_the_solvers_line(client):
    answer = client.post("/api/line", json=position(played=["SK", "S9"])).json()
    game = RECORD.game()
    game.replay(["SK", "S9"])
    for card in answer["line"]:
        values = mover_values(game)
        assert values[card] == max(values.values())
        game.play(card)
    assert game.is_over


def test_the_single_dummy_stream_fills_batch_by_batch_and_equals_analyse_view(client):
    body = position(played=["SK"], worlds=24, batch=8, seed=3)
    with client.stream("POST", "/api/view", json=body) as answer:
        lines = [json.loads(line) for line in answer.iter_lines() if line]
    assert [line["worlds"] for line in lines] == [8, 16, 24]
    assert lines[-1]["last"] and not lines[0]["last"]
    game = RECORD.game()
    game.replay(["SK"])
    view = analyse_view_until(game, lambda v: False, 8, 24, 3)
    for card, stats in view.cards.items():
        row = lines[-1]["cards"][str(card)]
        assert row["mean"] == pytest.approx(stats.mean)
        assert row["best_share"] == pytest.approx(stats.optimal)
        assert row["low"] <= row["mean"] <= row["high"]
        assert row["verdict"] in VERDICTS


def test_the_stream_lets_the_server_see_a_reader_leave_before_it_writes_the_next_line():
    # A reader that leaves is seen by the server's loop (connection_lost); lines written
    # before that go to a closed socket, and asyncio logs each write past the fourth. So the
    # stream gives the loop a turn between lines, even when the next line is already waiting.
    import asyncio
    from solver.web.app import _view_lines
    from solver.web.positions import ViewIn, card_values, read_position

    engine = Engine(clicks=1, long_work=1)
    body = ViewIn(**position(played=[str(c) for c in RECORD.played[:20]], worlds=3, batch=1))
    game = read_position(body)

    async def lines_and_turns():
        loop = asyncio.get_running_loop()
        stream = _view_lines(engine, game, body, card_values(engine, game), "points")
        lines, turns, seen = [await stream.__anext__()], [], []
        # Every line is queued once the job has ended.
        await loop.run_in_executor(None, engine.idle.wait)
        async for line in stream:
            seen.append(list(turns))    # the loop's turns taken before this line came
            lines.append(line)
            loop.call_soon(turns.append, len(lines))
        return lines, seen

    try:
        lines, seen = asyncio.run(lines_and_turns())
    finally:
        engine.close()
    assert [json.loads(line)["worlds"] for line in lines] == [1, 2, 3]
    assert seen == [[], [2]]    # the turn asked for after line 2 came before line 3


def test_table_bid_and_exports(client):
    table = client.post("/api/table", json={"deal": ROUND["deal"], "rules": "rotterdam"}).json()
    assert table == solve_table(RECORD.deal, Rules.rotterdam()).to_dict()
    bid = client.post("/api/bid", json={"deal": ROUND["deal"], "dealer": "E", "procedure": "free",
                                        "bid": "W S"}).json()
    assert bid["verdict"]["text"] == analyse_bidding(RECORD.deal, "E", procedure="free",
                                                     bid=("W", "S")).verdict()
    line = [str(c) for c in RECORD.played[:9]]
    kept = client.post("/api/export/record", json=position(played=line, dealer="E",
                                                           players={"N": "Anna"}))
    record = GameRecord.from_json(kept.text)
    assert [str(c) for c in record.played] == line and record.players[record.leader.left.left] == "Anna"
    assert "attachment" in kept.headers["content-disposition"]
    page = client.post("/api/export/report", json=position(played=line, dealer="E"))
    assert page.status_code == 200 and page.text.startswith("<!DOCTYPE html>")


# -- a real server: the single-dummy job stops when the reader goes away ----------------------

def test_a_single_dummy_job_stops_when_the_reader_leaves(board_server):
    import httpx
    url, engine = board_server
    before = engine.counters()
    body = position(worlds=512, batch=8, seconds=120)
    with httpx.Client(timeout=60) as http:
        with http.stream("POST", url + "/api/view", json=body) as answer:
            first = json.loads(next(answer.iter_lines()))
            assert first["worlds"] == 8
    # The job ends at its next batch, long before its 512 worlds: an event, not a clock.
    assert engine.idle.wait(60)
    after = engine.counters()
    assert after["stopped"] == before["stopped"] + 1
    assert after["finished"] == before["finished"]


def test_klaverjas_serve_prints_its_address_and_serves_the_board():
    import httpx
    process = subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT)
    try:
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        assert "note:" not in line
        # The socket is bound before the address is printed; uvicorn then answers on it.
        page = httpx.get(url, timeout=60)
        assert page.status_code == 200 and "Klaverjas" in page.text
    finally:
        process.terminate()
        process.wait(30)


def test_serve_refuses_a_bad_host_or_port_in_one_line(capsys):
    from solver.cli import main
    assert main(["serve", "--host", "no such host!"]) == 2
    assert main(["serve", "--port", "70000"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("klaverjas: error: --host no such host!: not an address")
    assert err[1] == "klaverjas: error: --port must be a whole number from 0 to 65535, got 70000"


def test_serve_names_what_another_host_exposes_and_a_busy_port():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert "every machine that can reach this one on port 8765" in exposure_note("0.0.0.0", 8765)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        with pytest.raises(UsageError, match="cannot listen on 127.0.0.1 port"):
            listening_socket("127.0.0.1", taken.getsockname()[1]).close()
    finally:
        taken.close()
