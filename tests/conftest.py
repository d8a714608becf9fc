"""Shared strategies: random deals, rule variants and positions for property tests."""
import itertools
import os
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import replace

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import Card, Deal, Game, Rules, Seat, Suit, Team
from solver.model.rules import MAX_AMOUNT

PLAY_RULES = [
    Rules(trump_duty=d, undertrump=u, roem=r, stuk=s)
    for d, u, r, s in itertools.product(
        ("amsterdam", "rotterdam"), ("forbidden", "must", "free"),
        ("table", "hand", "none"), ("trick", "hand", "none"))
]

# Every rule option (docs/rules.md) that changes values, drawn independently.
rules_strategy = st.builds(
    Rules,
    trump_duty=st.sampled_from(["amsterdam", "rotterdam"]),
    undertrump=st.sampled_from(["forbidden", "must", "free"]),
    roem=st.sampled_from(["table", "hand", "none"]),
    stuk=st.sampled_from(["trick", "hand", "none"]),
    four_of_a_kind=st.sampled_from([
        {"A": 100, "K": 100, "Q": 100, "T": 100, "J": 200},
        {"A": 100, "K": 100, "Q": 100, "T": 100, "J": 100, "9": 100},
        {}]),
    pit=st.sampled_from(["any", "playing", "none"]),
    pit_bonus=st.sampled_from([100, 90]),
    double_suits=st.sampled_from([[], ["S"], ["H", "D"]]),
    nat=st.sampled_from(["majority", "82", "none"]),
    multiplier=st.sampled_from([1, 2, 4]),
    zero_bonus=st.sampled_from([0, 50]),
    hand_roem_needs_trick=st.booleans(),
)

def example_counts(quick, factor=10):
    """A property test's example count for the default run, and `factor` times as many under
    -m slow (parametrize a test with it)."""
    return [pytest.param(quick, id="quick"),
            pytest.param(factor * quick, id="long", marks=pytest.mark.slow)]


def card_indices(*cards):
    """Engine card indices of cards written like "HA"."""
    return sorted(Card.parse(c).index for c in cards)


def process_ended(pid):
    """Whether process `pid` has ended: gone, or a zombie (Linux's /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True


# How long a test waits for processes that should end at once (a worker whose parent died or
# was interrupted, checked every 0.2 s at worst): one that outlives its parent would search on
# for minutes, and on a machine loaded tenfold one second was sometimes not enough.
ENDS_WITHIN = 5.0


def survivors_after(pids, seconds=ENDS_WITHIN):
    """The processes of `pids` still running after waiting up to `seconds` for them to end;
    those are then killed, so that a failing test leaves none behind."""
    deadline = time.monotonic() + seconds
    while not all(process_ended(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    survivors = [pid for pid in pids if not process_ended(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    return survivors


def junk_raises_only_solver_errors(calls, junk, **options):
    """Property: each of `calls` (name, function, good arguments), with some of its arguments
    replaced by `junk`, returns or raises a SolverError, and nothing else. `options` are
    Hypothesis settings."""
    from solver.errors import SolverError

    @settings(**{"deadline": None, "suppress_health_check": [HealthCheck.too_slow], **options})
    @given(st.sampled_from(calls), st.data())
    def check(call, data):
        name, function, good = call
        args = list(good)
        for i in data.draw(st.sets(st.sampled_from(range(len(args))), min_size=1),
                           label="replaced"):
            args[i] = data.draw(junk, label=f"argument {i}")
        try:
            function(*args)
        except SolverError:
            pass
        except Exception as err:     # anything else is the bug this test is for
            raise AssertionError(f"{name}{tuple(args)!r:.300} raised {type(err).__name__}: "
                                 f"{err}") from err
    check()


# For property tests whose examples each take a solve or more.
SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
suits = st.sampled_from(list(Suit))
seats = st.sampled_from(list(Seat))
teams = st.sampled_from(list(Team))


@st.composite
def positions(draw, rules=rules_strategy, tricks_left=st.integers(1, 3)):
    """A Game after a random legal play, with `tricks_left` tricks (or fewer) to go."""
    game = Game(Deal.random(draw(seeds)), trump=draw(suits), leader=draw(seats),
                playing=draw(teams), rules=draw(rules))
    left = draw(tricks_left)
    cards = (8 - left) * 4 + draw(st.integers(0, 3))
    for _ in range(min(cards, 31)):
        legal = game.legal_cards()
        game.play(legal[draw(st.integers(0, len(legal) - 1))])
    return game


# Random ledig rules; the trump game's scoring options are drawn too: they must change nothing.
ledig_rules = st.builds(
    Rules, contract=st.just("ledig"), ledig_trump=st.sampled_from(["none", "chosen"]),
    trump_duty=st.sampled_from(["amsterdam", "rotterdam"]),
    undertrump=st.sampled_from(["forbidden", "must", "free"]),
    ledig_bonus=st.integers(0, MAX_AMOUNT), roem=st.sampled_from(["table", "hand", "none"]),
    pit=st.sampled_from(["any", "playing", "none"]), nat=st.sampled_from(["majority", "82", "none"]),
    multiplier=st.sampled_from([1, 2, 4, 8]), double_suits=st.sampled_from([[], ["S"]]),
    zero_bonus=st.integers(0, MAX_AMOUNT))


@st.composite
def ledig_positions(draw, tricks_left=st.integers(1, 3)):
    """A ledig round after a random legal play, with `tricks_left` tricks (or fewer) to go."""
    rules = draw(ledig_rules)
    trump = draw(suits) if rules.ledig_trump == "chosen" else None
    game = Game(Deal.random(draw(seeds)), trump, draw(seats), rules=rules, bidder=draw(seats))
    left = draw(tricks_left)
    for _ in range(min((8 - left) * 4 + draw(st.integers(0, 3)), 31)):
        legal = game.legal_cards()
        game.play(legal[draw(st.integers(0, len(legal) - 1))])
    return game


@st.composite
def three_player_positions(draw, tricks_left=st.integers(1, 8)):
    """A trump round at a table of three (a random dummy of the playing team), after play."""
    game = draw(positions(tricks_left=tricks_left))
    rules = replace(game.rules, players=3)
    three = Game(game.deal, game.trump, game.leader, game.playing, rules,
                 dummy=game.playing.seats[draw(st.integers(0, 1))])
    three.replay(game.played)
    return three


def ledig_or_three(kind, tricks_left):
    """ledig_positions or three_player_positions ("ledig" or "three players"), with up to
    `tricks_left` tricks to go."""
    if kind == "ledig":
        return ledig_positions(tricks_left=st.integers(1, tricks_left))
    return three_player_positions(tricks_left=st.integers(1, tricks_left))


# -- a real browser, for the pages' tests ------------------------------------------------------
# Skipped where Chromium, chromedriver or selenium is missing, except in CI
# (KLAVERJAS_REQUIRE_BROWSER), where the skip is a failure.

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium driven by selenium, one per test module."""
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


def worker_processes(pid):
    """The worker processes that process `pid` has started (`solver._pool` spawns them, so
    their command line runs multiprocessing's spawn_main); not its other children, such as
    multiprocessing's resource tracker."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    workers = []
    for child in found.stdout.split():
        try:
            with open(f"/proc/{child}/cmdline", "rb") as cmdline:
                if b"--multiprocessing-fork" in cmdline.read():
                    workers.append(int(child))
        except FileNotFoundError:       # it has ended since
            pass
    return workers


# -- the analysis board on a real server, for the board's tests ------------------------------

@pytest.fixture(scope="module")
def board_server():
    """The board (solver.web) served by uvicorn on 127.0.0.1, on a free port, in a background
    thread: (its address, its engine), one per test module."""
    pytest.importorskip("fastapi")
    uvicorn = pytest.importorskip("uvicorn")
    import threading
    from solver.cli.serve import listening_socket
    from solver.web import create_app
    from solver.web.engine import Engine
    engine = Engine(clicks=2, long_work=2)
    sock = listening_socket("127.0.0.1", 0)     # listening before the server starts
    server = uvicorn.Server(uvicorn.Config(create_app(engine), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", engine
    server.should_exit = True
    thread.join(30)


# -- PyTorch, for the training tests -----------------------------------------------------------
# The [train] extra: skipped where PyTorch is missing, except in CI (KLAVERJAS_REQUIRE_TORCH),
# where the skip is a failure.

@pytest.fixture(scope="session")
def torch():
    """PyTorch, imported (or the test skipped, or failed under KLAVERJAS_REQUIRE_TORCH)."""
    if os.environ.get("KLAVERJAS_REQUIRE_TORCH"):
        import torch
        return torch
    return pytest.importorskip("torch")


def interrupt_once_searching(engine, after_nodes=10_000):
    """A started thread that sends Ctrl-C (SIGINT) to the main thread once `engine` has
    searched `after_nodes` nodes: inside the search, however late a loaded machine lets a
    timer run (a fixed delay sometimes fired after the search had ended)."""
    def watch():
        deadline = time.monotonic() + 60
        while not (engine.searching and engine.nodes >= after_nodes):
            if time.monotonic() > deadline:
                return      # the test then fails on the missing KeyboardInterrupt
            time.sleep(0.0005)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    return watcher
