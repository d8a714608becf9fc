"""The engine against a corpus solved by an independent solver (tests/data/corpus.jsonl).

The default run checks a fixed sample; `python -m pytest -m slow` checks every position.
Regenerate the corpus with `python tests/make_corpus.py`.
"""
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import positions
from independent_solver import solve_independently
from solver import Deal, Rules, Solver
from solver.engine.reference import minimax

CORPUS = Path(__file__).parent / "data" / "corpus.jsonl"
ROWS = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
SAMPLE = ROWS[::10]     # every tenth position: mid-play and full deals alike


def test_corpus_has_the_promised_size():
    kinds = [row["kind"] for row in ROWS]
    assert kinds.count("full") >= 100 and kinds.count("mid") >= 300
    assert len({row["variant"] for row in ROWS}) >= 12


def check(row):
    solver = Solver(Rules(**row["rules"]), table_mb=4)
    game = solver.game(Deal.from_pbn(row["deal"]), row["trump"], row["leader"], row["playing"],
                       played=row["played"])
    where = f"{row['kind']} {row['variant']} {row['deal']} played={row['played']}"
    for objective in ("points", "score", "make"):
        if objective in row:
            assert solver.value(game, objective) == row[objective], f"{objective}: {where}"


@pytest.mark.parametrize("row", SAMPLE, ids=lambda r: f"{r['kind']}-{r['variant']}")
def test_engine_matches_corpus_sample(row):
    check(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['kind']}-{r['variant']}")
def test_engine_matches_whole_corpus(row):
    check(row)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(tricks_left=st.integers(1, 3)), st.sampled_from(["points", "score", "make"]))
def test_independent_solver_equals_reference(game, objective):
    """The corpus is only as good as its solver: it must equal plain minimax on endgames."""
    assert solve_independently(game, objective) == minimax(game, objective).value
