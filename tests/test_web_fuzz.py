"""The board's JSON API fuzzed: whatever a request holds, the answer is JSON, an error is
{"error": message}, and the server never fails (no 500, no traceback)."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from solver.web import create_app  # noqa: E402
from solver.web.engine import Engine  # noqa: E402

from conftest import SLOW  # noqa: E402

DEAL = "N:A7.KQ9.9.87 JT.J.KQT8.T KQ.A87.A7.9 98.T.J.AKQJ"
ROUND = {"deal": DEAL, "trump": "S", "leader": "S", "playing": "EW", "rules": "amsterdam"}
CHEAP_ROUTES = ["/api/position", "/api/line", "/api/why", "/api/deal", "/api/record",
                "/api/table", "/api/export/record", "/api/bid", "/api/view", "/api/export/report"]
FIELDS = ["deal", "trump", "leader", "playing", "rules", "bidder", "dummy", "played", "at", "card",
          "text", "notation", "seed", "worlds", "batch", "seconds", "dealer", "procedure",
          "turned", "on_all_pass", "bid", "chooser_leads", "players"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)
cards = st.sampled_from([s + r for s in "CDHS" for r in "789TJQKA"] + ["", "X1", "H10", "♥A", "10"])
tricky = st.one_of(
    json_values, cards, st.sampled_from(["N", "E", "S", "W", "NS", "EW", "H", "nl", "en", "auto",
                                         "ledig", "rotterdam", "draaikaart", "free", "N H", "S X"]),
    st.lists(cards, max_size=34), st.integers(-2, 600),
    st.fixed_dictionaries({}, optional={
        "contract": st.sampled_from(["trump", "ledig", "x"]), "players": st.integers(1, 5),
        "ledig_trump": st.sampled_from(["none", "chosen"]), "pit_bonus": st.integers(-5, 2000),
        "four_of_a_kind": json_values, "double_suits": json_values, "nat": json_values}))

# A body near a real one: the round with some fields replaced, dropped or added.
near_bodies = st.builds(
    lambda changes, dropped: {k: v for k, v in {**ROUND, **changes}.items() if k not in dropped},
    st.dictionaries(st.sampled_from(FIELDS), tricky, max_size=4),
    st.sets(st.sampled_from(list(ROUND)), max_size=2))


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Engine(clicks=2, long_work=2)), raise_server_exceptions=False) as c:
        yield c


def check(answer) -> None:
    assert answer.status_code < 500, answer.text
    data = json.loads("".join(answer.iter_lines())) if answer.headers.get(
        "content-type", "").startswith("application/json") else None
    if answer.status_code >= 400:
        assert isinstance(data, dict) and set(data) == {"error"} and isinstance(data["error"], str)
        assert "Traceback" not in data["error"]


def bounded(route, body):
    """Keep the expensive work of a valid request small: few worlds, short jobs."""
    if isinstance(body, dict):
        if route in ("/api/view", "/api/bid") and isinstance(body.get("worlds"), int):
            body["worlds"] = min(body["worlds"], 8)
        if route == "/api/view":
            body["seconds"] = 5
    return body


@settings(max_examples=300, **SLOW)
@given(route=st.sampled_from(CHEAP_ROUTES), body=json_values)
def test_any_json_body_gets_an_answer_not_a_failure(client, route, body):
    check(client.post(route, json=bounded(route, body)))


@settings(max_examples=300, **SLOW)
@given(route=st.sampled_from(CHEAP_ROUTES), body=near_bodies)
def test_bodies_near_a_real_position_get_an_answer_not_a_failure(client, route, body):
    check(client.post(route, json=bounded(route, body)))


@settings(max_examples=100, **SLOW)
@given(route=st.sampled_from(CHEAP_ROUTES), raw=st.binary(max_size=200))
def test_bytes_that_are_not_json_get_an_answer_not_a_failure(client, route, raw):
    check(client.post(route, content=raw, headers={"content-type": "application/json"}))
