"""Training labels: the schema, exact values from the team to move, identical bytes whatever
runs them, resuming after a crash, and clear errors."""
import errno
import hashlib
import json
import multiprocessing
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import worker_fakes
from conftest import survivors_after, worker_processes
from solver import (Card, Deal, Game, NotationError, Rules, Seat, Solver, SolverError, Suit,
                    Team, solve_moves)
from solver.cli import main
from solver.labels import (MANIFEST, NOT_LEGAL, SCHEMA, LabelConfig, LabelsError, deal_rows,
                           generate, load, shard_name, verify, verify_report, write_atomically)
from solver.labels import rows as rows_module, run as run_module, worker
from solver.labels.worker import worker_solver

SMALL = dict(deals=6, deals_per_shard=2, seed=3)
TESTS = str(Path(__file__).parent)


def files(folder):
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir())
            if p.name.startswith("shard-")}


def game_of(rows, i, rules=None):
    deal = Deal([[Card.from_index(c) for c in range(32) if rows["deal"][i][c] == seat]
                 for seat in range(4)])
    played = [Card.from_index(int(c)) for c in rows["played"][i] if c >= 0]
    game = Game(deal, Suit(int(rows["trump"][i])), Seat(int(rows["leader"][i])),
                Team(int(rows["playing"][i])), rules or Rules())
    game.replay(played)
    return game


@pytest.fixture(scope="module")
def npz_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("labels")
    config = LabelConfig(format="npz", objectives=("make", "score"), **SMALL)
    summary = generate(config, out, workers=1)
    return config, out, summary


def test_rows_follow_the_schema(npz_run):
    config, out, summary = npz_run
    rows = load(out)
    assert summary.rows == len(rows["deal_id"]) == 6 * 8
    for name, (dtype, width, _) in SCHEMA.items():
        assert rows[name].dtype == np.dtype(dtype), name
        assert rows[name].shape[1:] == ((width,) if width else ()), name
    assert rows["make"].dtype == np.int8 and rows["score"].dtype == np.int16
    assert list(rows["deal_id"]) == [d for d in range(6) for _ in range(8)]
    assert all(sorted(np.bincount(r, minlength=4)) == [8] * 4 for r in rows["deal"])


def test_the_manifest_records_rules_schema_version_and_checksums(npz_run):
    config, out, _ = npz_run
    manifest = json.loads((out / MANIFEST).read_text())
    assert LabelConfig.from_dict(manifest["config"]) == config
    assert manifest["values_view"] == "the team to move" and manifest["complete"]
    assert set(manifest["schema"]) == set(SCHEMA) | {"make", "score"}
    assert manifest["version"]
    for name, data in files(out).items():
        assert manifest["shards"][name]["sha256"] == hashlib.sha256(data).hexdigest()


def test_sampled_rows_equal_solve_moves_seen_from_the_team_to_move(npz_run):
    _, out, _ = npz_run
    rows = load(out)
    for i in range(0, len(rows["deal_id"]), 7):
        game = game_of(rows, i)
        assert rows["to_move"][i] == game.to_move
        sign = 1 if game.to_move.team == game.playing else -1
        values = solve_moves(game.deal, game.trump, game.leader, game.playing,
                             played=game.played)
        expected = np.full(32, NOT_LEGAL, dtype=np.int16)
        for card, value in values.items():
            expected[card.index] = sign * value
        assert (rows["values"][i] == expected).all()
        assert rows["best"][i] == max(sign * v for v in values.values())
        made = solve_moves(game.deal, game.trump, game.leader, game.playing,
                           played=game.played, objective="make")
        for card, value in made.items():
            assert rows["make"][i][card.index] == int(value == (sign == 1))
        assert (rows["make"][i] == -1).sum() == 32 - len(made)


def test_optimal_play_keeps_the_value_from_lead_to_lead(npz_run):
    _, out, _ = npz_run
    rows = load(out)
    for i in range(len(rows["deal_id"]) - 1):
        if rows["deal_id"][i] != rows["deal_id"][i + 1]:
            continue
        playing = rows["playing"][i]
        view = [1 if Seat(int(rows["to_move"][k])).team == playing else -1 for k in (i, i + 1)]
        assert rows["best"][i] * view[0] == rows["best"][i + 1] * view[1]


@pytest.mark.parametrize("positions, per_deal", [("root", 1), ("trick-starts", 8), ("all", 32)])
def test_positions_choose_the_rows(positions, per_deal):
    config = LabelConfig(deals=2, positions=positions, play="random")
    rows = [row for d in range(2) for row in deal_rows(config, d, Solver())]
    assert len(rows) == 2 * per_deal


def test_skip_forced_drops_positions_with_one_legal_card():
    solver = Solver()
    kept = deal_rows(LabelConfig(positions="all", play="random", skip_forced=True), 0, solver)
    every = deal_rows(LabelConfig(positions="all", play="random"), 0, solver)
    forced = [r for r in every if (r["values"] != NOT_LEGAL).sum() == 1]
    assert forced and len(kept) == len(every) - len(forced)
    assert all((r["values"] != NOT_LEGAL).sum() > 1 for r in kept)


@pytest.mark.parametrize("play", ["random", "mixed:0.5"])
def test_random_play_is_seeded_per_deal(play):
    a = deal_rows(LabelConfig(play=play, seed=11), 4, Solver())
    b = deal_rows(LabelConfig(play=play, seed=11), 4, Solver(table_mb=1))
    c = deal_rows(LabelConfig(play=play, seed=12), 4, Solver())
    assert [list(r["played"]) for r in a] == [list(r["played"]) for r in b]
    assert [list(r["played"]) for r in a] != [list(r["played"]) for r in c]


@pytest.mark.parametrize("fmt", ["npz", "parquet"])
def test_the_bytes_do_not_depend_on_the_worker_count(tmp_path, fmt):
    config = LabelConfig(format=fmt, positions="root", **SMALL)
    generate(config, tmp_path / "one", workers=1)
    generate(config, tmp_path / "two", workers=2)
    assert files(tmp_path / "one") == files(tmp_path / "two") and len(files(tmp_path / "one")) == 3
    rows = load(tmp_path / "two")
    assert rows["values"].shape == (6, 32)


def test_a_dask_cluster_writes_the_same_bytes(tmp_path):
    distributed = pytest.importorskip("distributed")
    config = LabelConfig(format="npz", positions="root", **SMALL)
    generate(config, tmp_path / "local", workers=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp://", dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://")     # checked before it is used
        generate(config, tmp_path / "dask", scheduler=cluster.scheduler_address)
    assert files(tmp_path / "dask") == files(tmp_path / "local")


def test_a_killed_run_resumes_to_the_rows_of_an_uninterrupted_run(tmp_path):
    argv = ["labels", "--deals", "12", "--deals-per-shard", "2", "--positions", "root",
            "--format", "npz", "--seed", "5", "--quiet"]
    assert main(argv + ["--out", str(tmp_path / "whole"), "--workers", "1"]) == 0
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "solver.cli"] + argv + ["--out", str(out),
                            "--workers", "2"], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not list(out.glob("shard-*")) and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    written = len(list(out.glob("shard-*")))
    assert 1 <= written < 6, "the run should have been killed midway"
    assert main(argv + ["--out", str(out), "--workers", "2"]) == 0
    assert files(out) == files(tmp_path / "whole")


def test_a_rerun_with_other_options_is_refused_naming_the_option(tmp_path):
    generate(LabelConfig(format="npz", positions="root", **SMALL), tmp_path, workers=1)
    with pytest.raises(LabelsError, match='holds a run with seed=3, not seed=4: use another'):
        generate(LabelConfig(format="npz", positions="root", **dict(SMALL, seed=4)), tmp_path)


def test_an_unwritable_output_is_a_clear_error(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(LabelsError, match="cannot create the output folder"):
        generate(LabelConfig(format="npz", positions="root", deals=1), tmp_path / "file" / "out")


def test_a_full_disk_leaves_no_shard_behind(tmp_path, monkeypatch):
    real_fsync = os.fsync

    def full_disk(handle):
        if "shard-" in os.readlink(f"/proc/self/fd/{handle}"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(handle)
    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(LabelsError, match="No space left on device"):
        generate(LabelConfig(format="npz", positions="root", **SMALL), tmp_path, workers=1)
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == [MANIFEST]
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("options, message", [
    (dict(positions="some"), "positions 'some' is not allowed: choose one of root, trick-starts, all"),
    (dict(format="csv"), "format 'csv' is not allowed: choose one of parquet, npz"),
    (dict(play="mixed:2"), "play 'mixed:2' is not optimal, random or mixed:P"),
    (dict(deals=0), "deals must be a whole number from 1 to 100000000000, got 0"),
    (dict(deals=True), "deals must be a whole number from 1 to 100000000000, got True"),
    (dict(seed=1.5), "seed must be a whole number from 0 to 18446744073709551615, got 1.5"),
    (dict(worlds=-1), "worlds must be a whole number of at least 0"),
    (dict(objectives=("points",)), "objective 'points' is not allowed: choose one of make, score"),
    (dict(rules="amsterdam"), "rules must be a Rules, got 'amsterdam'"),
])
def test_bad_options_are_labels_errors(options, message):
    with pytest.raises(LabelsError, match=message):
        LabelConfig(**options)


@pytest.mark.parametrize("name, value, message", [
    ("trump", "X", "trump: unknown suit 'X'"),
    ("leader", "Q", "leader: unknown seat 'Q'"),
    ("playing", 5, "playing: unknown team 5"),
])
def test_an_unreadable_fixed_option_is_a_labels_error_naming_it(name, value, message):
    with pytest.raises(LabelsError, match=message) as caught:
        LabelConfig(**{name: value})
    assert isinstance(caught.value.__cause__, NotationError)


def test_whole_number_options_accept_numpy_integers_as_plain_ints():
    config = LabelConfig(deals=np.int64(3), seed=np.int32(2))
    assert config.deals == 3 and type(config.deals) is int and type(config.seed) is int
    assert json.dumps(config.to_dict())


def test_labels_error_is_one_of_the_package_errors():
    import solver.errors
    assert LabelsError is solver.errors.LabelsError and issubclass(LabelsError, SolverError)


def test_the_command_writes_parquet_with_a_summary(tmp_path, capsys):
    status = main(["labels", "--deals", "2", "--positions", "root", "--out", str(tmp_path),
                   "--quiet", "--trump", "H", "--leader", "E", "--playing", "EW"])
    out = capsys.readouterr().out
    assert status == 0 and "2 rows in 1 new shards" in out
    rows = load(tmp_path)
    assert set(rows["trump"]) == {int(Suit.H)} and set(rows["playing"]) == {int(Team.EW)}
    assert shard_name(LabelConfig(), 0) == "shard-00000.parquet"


def test_a_solver_pickles_with_its_rules():
    solver = Solver(Rules.rotterdam(), table_mb=2)
    copy = pickle.loads(pickle.dumps(solver))
    assert copy.rules == solver.rules and copy.table_mb == 2
    game = Game(Deal.random(1), "H", "N", "NS", Rules.rotterdam())
    assert copy.value(game) == solver.value(game)


def start_labels(out, *extra):
    argv = [sys.executable, "-m", "solver.cli", "labels", "--deals", "200", "--deals-per-shard",
            "5", "--format", "npz", "--workers", "2", "--quiet", "--out", str(out), *extra]
    # A new session with the default Ctrl-C handler, as in a terminal.
    return subprocess.Popen(argv, start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def wait_for_a_shard(out, proc):
    deadline = time.monotonic() + 60
    while not list(out.glob("shard-*")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)


def test_ctrl_c_stops_the_workers_and_keeps_complete_shards(tmp_path):
    proc = start_labels(tmp_path)
    wait_for_a_shard(tmp_path, proc)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err == "klaverjas: interrupted\n"
    assert not list(tmp_path.glob(".*.tmp"))
    assert 1 <= len(list(tmp_path.glob("shard-*"))) < 40


def test_a_killed_worker_is_a_clear_error(tmp_path):
    proc = start_labels(tmp_path)
    wait_for_a_shard(tmp_path, proc)
    os.kill(worker_processes(proc.pid)[0], signal.SIGKILL)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "a worker process died" in err and "run the same command again" in err
    assert err.count("\n") == 1


# -- the rows are today's rows ------------------------------------------------------------------

def digest(rows):
    data = hashlib.sha256()
    for name, column in rows.items():
        data.update(f"{name} {column.dtype.str} {column.shape}".encode())
        data.update(column.tobytes())
    return data.hexdigest()


@pytest.mark.parametrize("options, expected", [
    (dict(deals=4, deals_per_shard=2, seed=3, positions="all", objectives=("make", "score"),
          worlds=2), "2b9866913145ec9373acd3773f193ce2ac9ba75b3dea05b265b667da172f679d"),
    (dict(deals=6, deals_per_shard=4, seed=5, positions="trick-starts", play="mixed:0.5"),
     "5443faf797ee989b213735b351633c2b9ddf9008f4cefd77e4bd4a4eb90e5705"),
])
def test_the_rows_are_those_of_the_first_labels_release(tmp_path, options, expected):
    # Digests of the arrays written by the labels code before it became a package: a change
    # here changes every label already written.
    generate(LabelConfig(format="npz", **options), tmp_path, workers=1)
    assert digest(load(tmp_path)) == expected


# -- a worker's Solvers ---------------------------------------------------------------------------

def in_a_new_thread(work):
    """work() on a thread of its own, so that it starts with no kept Solvers."""
    results = []
    thread = threading.Thread(target=lambda: results.append(work()))
    thread.start()
    thread.join()
    return results[0]


def test_a_worker_keeps_one_solver_per_rules_and_objectives():
    def work():
        first = worker_solver(LabelConfig())
        return (first, worker_solver(LabelConfig(seed=9, deals=3)),
                worker_solver(LabelConfig(objectives=("make",))),
                worker_solver(LabelConfig(rules=Rules.rotterdam())))
    first, same, other_objectives, other_rules = in_a_new_thread(work)
    assert first is same and first.rules == Rules()
    assert other_objectives is not first and other_rules is not first
    assert other_rules.rules == Rules.rotterdam()


def test_a_worker_keeps_a_few_solvers_and_drops_the_least_recently_used():
    configs = [LabelConfig(rules=Rules(multiplier=m)) for m in (1, 2, 4)] + [
        LabelConfig(rules=Rules(zero_bonus=b)) for b in (50, 100, 150)]
    assert len(configs) > worker.SOLVERS_KEPT

    def work():
        solvers = [worker_solver(config) for config in configs]
        kept = len(worker._kept())
        newest_again = worker_solver(configs[-1]) is solvers[-1]
        oldest_again = worker_solver(configs[0]) is solvers[0]
        return kept, newest_again, oldest_again
    kept, newest_again, oldest_again = in_a_new_thread(work)
    assert kept == worker.SOLVERS_KEPT
    assert newest_again and not oldest_again


def test_threads_do_not_share_solvers():
    assert in_a_new_thread(lambda: worker_solver(LabelConfig())) is not \
        in_a_new_thread(lambda: worker_solver(LabelConfig()))


# -- the summary -----------------------------------------------------------------------------------

def test_a_solver_adds_up_the_time_inside_its_engine_calls():
    solver = Solver()
    game = Game(Deal.random(1), "H", "N", "NS")
    assert solver.search_seconds == 0
    solver.move_values(game)
    assert solver.search_seconds > 0


def test_search_seconds_are_the_time_inside_solver_calls_and_wall_seconds_the_whole_run(
        tmp_path, monkeypatch):
    real_rounds = LabelConfig.rounds

    def slow_rounds(config):
        time.sleep(0.1)         # work outside the search, once a deal
        return real_rounds(config)
    monkeypatch.setattr(LabelConfig, "rounds", slow_rounds)
    start = time.perf_counter()
    summary = generate(LabelConfig(format="npz", positions="root", **SMALL), tmp_path, workers=1)
    assert summary.wall_seconds <= time.perf_counter() - start
    assert summary.wall_seconds >= 0.6
    assert 0 < summary.search_seconds <= summary.wall_seconds - 0.6
    assert str(summary).startswith(f"6 rows in 3 new shards (0 already done), "
                                   f"{summary.wall_seconds:.1f} s, ")


# -- loading -------------------------------------------------------------------------------------

@pytest.fixture
def run_copy(npz_run, tmp_path):
    _, out, _ = npz_run
    copy = tmp_path / "labels"
    shutil.copytree(out, copy)
    return copy


def test_loading_a_folder_without_a_manifest_names_the_folder(tmp_path):
    with pytest.raises(LabelsError, match=f"{tmp_path} has no manifest.json: not a labels folder"):
        load(tmp_path)


def test_loading_a_junk_manifest_names_it(run_copy):
    (run_copy / MANIFEST).write_text("{not json")
    with pytest.raises(LabelsError, match="manifest.json is not a labels manifest"):
        load(run_copy)


def test_loading_a_manifest_with_a_bad_option_names_it(run_copy):
    manifest = json.loads((run_copy / MANIFEST).read_text())
    manifest["config"]["positions"] = "some"
    (run_copy / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(LabelsError, match="manifest.json is not a labels manifest: positions"):
        load(run_copy)


def test_loading_with_a_shard_missing_names_the_shard(run_copy):
    (run_copy / "shard-00001.npz").unlink()
    with pytest.raises(LabelsError, match="shard-00001.npz is missing: the run did not finish"):
        load(run_copy)


def test_loading_a_shard_changed_since_the_run_names_the_shard(run_copy):
    shard = run_copy / "shard-00002.npz"
    shard.write_bytes(shard.read_bytes()[:-40])
    with pytest.raises(LabelsError, match="shard-00002.npz is not the shard the run wrote"):
        load(run_copy)


@pytest.mark.parametrize("fmt", ["npz", "parquet"])
@pytest.mark.parametrize("damage", [lambda data: data[:len(data) // 2], lambda data: b"junk"])
def test_loading_without_verifying_a_damaged_shard_names_the_shard(tmp_path, fmt, damage):
    generate(LabelConfig(format=fmt, positions="root", **SMALL), tmp_path, workers=1)
    shard = tmp_path / f"shard-00001.{fmt}"
    shard.write_bytes(damage(shard.read_bytes()))
    with pytest.raises(LabelsError, match=f"shard-00001.{fmt} is not a readable {fmt} shard") \
            as caught:
        load(tmp_path, verify=False)
    assert caught.value.__cause__ is not None


# -- the worker processes -------------------------------------------------------------------------

def test_a_failing_run_stops_busy_workers_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(run_module, "_shard_work", worker_fakes.stuck_after_shard_0)

    def no_space(path, data):
        raise LabelsError(f"cannot write {path}: No space left on device")
    monkeypatch.setattr(run_module, "write_atomically", no_space)
    start = time.monotonic()
    with pytest.raises(LabelsError, match="No space left on device"):
        generate(LabelConfig(format="npz", positions="root", deals=8, deals_per_shard=2),
                 tmp_path, workers=2)
    assert time.monotonic() - start < 60
    assert multiprocessing.active_children() == []


def test_an_error_inside_a_worker_reaches_the_caller(tmp_path, monkeypatch):
    monkeypatch.setattr(run_module, "_shard_work", worker_fakes.broken_deal_3)
    with pytest.raises(RuntimeError, match="deal 3 is broken"):
        generate(LabelConfig(format="npz", positions="root", **SMALL), tmp_path, workers=2)
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("module", ["__init__", "config", "rows", "shards", "run"])
def test_the_docstring_examples_run(module):
    import doctest
    import importlib
    name = "solver.labels" if module == "__init__" else f"solver.labels.{module}"
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted and not result.failed


def test_the_progress_bar_of_a_resumed_run_starts_at_the_deals_already_written(tmp_path, capsys):
    config = LabelConfig(format="npz", positions="root", deals=5, deals_per_shard=2)
    generate(config, tmp_path, workers=1)
    (tmp_path / "shard-00000.npz").unlink()     # shards 1 and 2 keep 3 of the 5 deals
    generate(config, tmp_path, workers=1, progress=True)
    assert " 3/5 " in capsys.readouterr().err


# -- what a resume keeps, load and verify check ---------------------------------------------------

def flip_a_bit(data):
    data = bytearray(data)
    data[len(data) // 2] ^= 1
    return bytes(data)


@pytest.mark.parametrize("damage", [flip_a_bit, lambda data: b"junk"])
def test_a_resume_redoes_a_shard_whose_contents_do_not_match_the_manifest(run_copy, npz_run,
                                                                          damage):
    config, out, _ = npz_run
    shard = run_copy / "shard-00001.npz"
    shard.write_bytes(damage(shard.read_bytes()))
    summary = generate(config, run_copy, workers=1)
    assert summary.shards_redone == ("shard-00001.npz",) and summary.shards_written == 1
    assert str(summary).endswith("; redid 1 shard whose contents did not match the manifest: "
                                 "shard-00001.npz")
    assert files(run_copy) == files(out)
    assert (run_copy / MANIFEST).read_bytes() == (out / MANIFEST).read_bytes()


def test_a_resume_after_a_crash_checks_shards_against_the_sha256_recorded_as_they_were_written(
        tmp_path, monkeypatch):
    config = LabelConfig(format="npz", positions="root", **SMALL)
    generate(config, tmp_path / "whole", workers=1)

    def crash(*args):
        raise KeyboardInterrupt     # the run ends after its last shard, before the manifest
    monkeypatch.setattr(run_module, "finish_manifest", crash)
    out = tmp_path / "crashed"
    with pytest.raises(KeyboardInterrupt):
        generate(config, out, workers=1)
    monkeypatch.undo()
    assert json.loads((out / MANIFEST).read_text())["shards"] == {}
    shard = out / "shard-00002.npz"
    shard.write_bytes(flip_a_bit(shard.read_bytes()))
    summary = generate(config, out, workers=1)
    assert summary.shards_redone == ("shard-00002.npz",) and summary.shards_skipped == 2
    assert files(out) == files(tmp_path / "whole") and verify(out) == {}
    assert sorted(p.name for p in out.iterdir()) == [".lock", MANIFEST] + sorted(files(out))


def test_a_shard_without_a_recorded_sha256_is_redone(run_copy, npz_run):
    config, out, _ = npz_run
    manifest = json.loads((run_copy / MANIFEST).read_text())
    del manifest["shards"]["shard-00000.npz"]
    (run_copy / MANIFEST).write_text(json.dumps(manifest))
    assert generate(config, run_copy, workers=1).shards_redone == ("shard-00000.npz",)
    assert (run_copy / MANIFEST).read_bytes() == (out / MANIFEST).read_bytes()


def test_load_checks_each_shard_against_the_manifest_unless_told_not_to(run_copy):
    (run_copy / "shard-00001.npz").write_bytes((run_copy / "shard-00000.npz").read_bytes())
    with pytest.raises(LabelsError, match="shard-00001.npz is not the shard the run wrote"):
        load(run_copy)
    assert list(load(run_copy, verify=False)["deal_id"][:32]) == [0] * 8 + [1] * 8 + [0] * 8 + [1] * 8


def test_loading_a_shard_with_no_recorded_sha256_says_its_run_did_not_finish(run_copy):
    manifest = json.loads((run_copy / MANIFEST).read_text())
    manifest["shards"] = {}
    (run_copy / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(LabelsError, match="shard-00000.npz has no SHA-256 recorded in "
                                          "manifest.json: its run did not finish"):
        load(run_copy)


def test_verify_names_each_bad_shard_with_what_is_wrong(run_copy):
    assert verify(run_copy) == {} and verify_report(run_copy) == (
        f"{run_copy}: all 3 shards match manifest.json", 0)
    (run_copy / "shard-00000.npz").unlink()
    shard = run_copy / "shard-00002.npz"
    shard.write_bytes(flip_a_bit(shard.read_bytes()))
    assert verify(run_copy) == {
        "shard-00000.npz": "missing",
        "shard-00002.npz": "its SHA-256 differs from the one in manifest.json (truncated, "
                           "damaged or replaced)"}
    report, status = verify_report(run_copy)
    assert status == 1 and report.splitlines() == [
        f"{run_copy / 'shard-00000.npz'}: missing",
        f"{run_copy / 'shard-00002.npz'}: its SHA-256 differs from the one in manifest.json "
        f"(truncated, damaged or replaced)",
        "2 of 3 shards are not the ones the run wrote: run its command again to write them"]


def test_the_command_verifies_a_folder_and_exits_1_naming_a_bad_shard(run_copy, capsys):
    assert main(["labels", "--verify", str(run_copy)]) == 0
    assert "all 3 shards match manifest.json" in capsys.readouterr().out
    shard = run_copy / "shard-00002.npz"
    shard.write_bytes(flip_a_bit(shard.read_bytes()))
    with pytest.raises(SystemExit) as exit_:
        main(["labels", "--verify", str(run_copy)])
    assert exit_.value.code == 1 and "shard-00002.npz" in capsys.readouterr().out


def test_the_command_needs_an_output_folder_unless_it_verifies(capsys):
    assert main(["labels", "--deals", "1"]) == 2
    assert "labels needs --out FOLDER" in capsys.readouterr().err


def test_verifying_a_folder_that_is_not_a_labels_folder_names_it(tmp_path):
    with pytest.raises(LabelsError, match=f"{tmp_path} has no manifest.json"):
        verify(tmp_path)


def test_the_manifest_is_written_as_indented_json_in_pieces(npz_run):
    _, out, _ = npz_run
    text = (out / MANIFEST).read_text()
    assert text == json.dumps(json.loads(text), indent=2) + "\n"


# -- memory ---------------------------------------------------------------------------------------

PEAK_RSS = """
import resource, sys, tempfile
sys.path.insert(0, sys.argv[2])
import worker_fakes
from solver.labels import LabelConfig, generate, run

run._shard_work = worker_fakes.cheap_rows       # the workers' rows, without the search
with tempfile.TemporaryDirectory() as out:
    generate(LabelConfig(deals=int(sys.argv[1]), deals_per_shard=4, format="npz"), out,
             workers=2)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_the_parent_of_a_run_holds_no_more_memory_for_more_rows():
    def peak_kb(deals):
        return int(subprocess.run([sys.executable, "-c", PEAK_RSS, str(deals), TESTS], check=True,
                                  capture_output=True, text=True).stdout)
    small, large = peak_kb(1000), peak_kb(4000)     # 8,000 and 32,000 rows
    assert large - small < 4000, (small, large)


def test_a_run_holds_no_more_python_memory_for_more_shards(tmp_path, monkeypatch):
    import tracemalloc

    def cheap_rows(config, deal_id, solver):
        return [{"deal_id": deal_id, "deal": np.zeros(32, np.int8), "trump": 0, "leader": 0,
                 "playing": 0, "played": np.full(32, -1, np.int8), "to_move": 0,
                 "values": np.zeros(32, np.int16), "best": 0}]
    monkeypatch.setattr(rows_module, "deal_rows", cheap_rows)

    def peak(shards, run=""):
        generate(LabelConfig(deals=10, deals_per_shard=1, format="npz"), tmp_path / "warm",
                 workers=1)
        tracemalloc.start()
        try:
            generate(LabelConfig(deals=shards, deals_per_shard=1, format="npz"),
                     tmp_path / f"{shards}{run}", workers=1)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    # The least of two runs: a one-off allocation of the process (a global table of the
    # interpreter growing once, say) is not memory the run holds for each shard, and does not
    # come back in the second run.
    small, large = peak(200), min(peak(800), peak(800, "again"))
    assert large - small < 100_000, (small, large)     # 33 bytes a shard, not a manifest entry


# -- signals, and runs that share a folder ------------------------------------------------------

@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_the_workers_end_within_a_second_when_their_parent_dies(tmp_path, sig):
    proc = start_labels(tmp_path)
    wait_for_a_shard(tmp_path, proc)
    workers = worker_processes(proc.pid)
    assert len(workers) == 2
    os.kill(proc.pid, sig)      # the parent only, as `kill PID` does
    proc.communicate(timeout=30)
    assert survivors_after(workers) == []


def test_sigterm_stops_a_run_as_ctrl_c_does_and_exits_with_143(tmp_path):
    proc = start_labels(tmp_path)
    wait_for_a_shard(tmp_path, proc)
    os.kill(proc.pid, signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143 and err == ""
    assert not list(tmp_path.glob(".*.tmp"))
    bad = verify(tmp_path)
    assert set(bad.values()) == {"missing"} and len(bad) < 40


def test_a_second_run_into_a_folder_being_written_is_refused_naming_the_first(tmp_path, capsys):
    proc = start_labels(tmp_path)
    try:
        wait_for_a_shard(tmp_path, proc)
        start = time.monotonic()
        status = main(["labels", "--deals", "200", "--deals-per-shard", "5", "--format", "npz",
                       "--quiet", "--out", str(tmp_path)])
        assert time.monotonic() - start < 5
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.communicate(timeout=30)
    assert status == 2 and capsys.readouterr().err == (
        f"klaverjas: error: {tmp_path} is being written by another labels run (pid {proc.pid}): "
        f"wait for it to end, or use another folder\n")


def test_two_identical_runs_started_at_once_into_one_folder(tmp_path):
    argv = [sys.executable, "-m", "solver.cli", "labels", "--deals", "16", "--deals-per-shard",
            "2", "--positions", "root", "--format", "npz", "--seed", "7", "--quiet"]
    runs = [subprocess.Popen(argv + ["--out", str(tmp_path / "both"), "--workers", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    outcomes = sorted((run.wait(timeout=120), run.stderr.read()) for run in runs)
    for run in runs:
        run.stdout.close()
        run.stderr.close()
    assert outcomes[0] == (0, "")
    assert outcomes[1][0] in (0, 2)     # refused, or started after the first had finished
    if outcomes[1][0] == 2:
        assert "is being written by another labels run (pid " in outcomes[1][1]
    assert subprocess.run(argv + ["--out", str(tmp_path / "alone")]).returncode == 0
    assert files(tmp_path / "both") == files(tmp_path / "alone") and verify(tmp_path / "both") == {}


def test_writers_of_one_file_never_share_a_temporary_name(tmp_path):
    errors = []

    def write(data):
        try:
            for _ in range(200):
                write_atomically(tmp_path / "shard-00000.npz", data)
        except LabelsError as err:
            errors.append(err)
    threads = [threading.Thread(target=write, args=(bytes([i]) * 100_000,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and [p.name for p in tmp_path.iterdir()] == ["shard-00000.npz"]


def test_a_run_refused_while_the_first_is_taking_the_folder_still_names_its_pid(tmp_path,
                                                                                 monkeypatch):
    """The first run is stopped between taking the lock and writing its pid into it; a second
    run then is refused with that pid, never "pid unknown"."""
    import fcntl
    from solver.labels.folder import locked
    paused, go, done = threading.Event(), threading.Event(), threading.Event()
    real_pwrite, real_flock = os.pwrite, fcntl.flock

    def pwrite(handle, data, offset):
        if threading.current_thread() is first:
            paused.set()
            assert go.wait(60)
        return real_pwrite(handle, data, offset)

    def flock(handle, operation):
        if threading.current_thread() is not first and not operation & fcntl.LOCK_NB:
            go.set()        # the second run waits here: let the first go on
        return real_flock(handle, operation)

    def hold():
        with locked(tmp_path):
            done.wait(60)
    monkeypatch.setattr(os, "pwrite", pwrite)
    monkeypatch.setattr(fcntl, "flock", flock)
    first = threading.Thread(target=hold)
    first.start()
    try:
        assert paused.wait(60)
        with pytest.raises(LabelsError) as refused:
            with locked(tmp_path):
                pass
    finally:
        go.set()
        done.set()
        first.join()
    assert f"another labels run (pid {os.getpid()})" in str(refused.value)


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_shards_and_manifest_are_written_with_the_users_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        generate(LabelConfig(deals=2, deals_per_shard=1, positions="root", format="npz"),
                 tmp_path, workers=1)
    finally:
        os.umask(old)
    written = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir() if p.name != ".lock"}
    assert written == {MANIFEST: mode, "shard-00000.npz": mode, "shard-00001.npz": mode}


def test_a_resume_removes_what_a_killed_run_left_half_written(run_copy, npz_run):
    config, _, _ = npz_run
    (run_copy / ".shard-00001.npz.k3j4.tmp").write_bytes(b"half")
    generate(config, run_copy, workers=1)
    assert not list(run_copy.glob(".*.tmp"))


# -- checks before anything runs -----------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    (dict(deals=10**12, deals_per_shard=10), "deals must be a whole number from 1 to 100000000000"),
    (dict(deals=10**9, deals_per_shard=10), "deals=1000000000 in shards of 10 makes 100000000 "
                                            "shards; a run has at most 100000: raise "
                                            "deals_per_shard .up to 1000000. to at least 10000"),
    (dict(deals_per_shard=10**7), "deals_per_shard must be a whole number from 1 to 1000000"),
    (dict(seed=2**64), "seed must be a whole number from 0 to 18446744073709551615"),
    (dict(skip_forced="no"), "skip_forced must be True or False, got 'no'"),
    (dict(play="mixed: 0.5 "), "play 'mixed: 0.5 ' is not optimal, random or mixed:P"),
    (dict(play="mixed:nan"), "play 'mixed:nan' is not optimal"),
    (dict(play=None), "play None is not optimal"),
    (dict(objectives=None), "objectives must be a tuple of names .make, score., got None"),
    (dict(objectives="make"), "objectives must be a tuple of names .make, score., got 'make'"),
])
def test_options_out_of_range_or_of_the_wrong_kind_are_labels_errors(options, message):
    with pytest.raises(LabelsError, match=message):
        LabelConfig(**options)


def test_a_huge_run_is_refused_at_once_by_the_command(tmp_path, capsys):
    start = time.monotonic()
    assert main(["labels", "--deals", "1000000000000", "--deals-per-shard", "10", "--quiet",
                 "--out", str(tmp_path)]) == 2
    assert time.monotonic() - start < 5 and list(tmp_path.iterdir()) == []
    assert "--deals must be a whole number from 1 to 1000000000" in capsys.readouterr().err


def test_a_run_of_too_many_shards_is_refused_by_its_config(tmp_path, capsys):
    assert main(["labels", "--deals", "1000000000", "--deals-per-shard", "1", "--quiet",
                 "--out", str(tmp_path)]) == 2
    assert "shards; a run has at most 100000" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_missing_shards_are_found_one_at_a_time(tmp_path, monkeypatch):
    from solver.labels.folder import missing_shards
    checked = []
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda path: checked.append(path) or real_exists(path))
    todo = missing_shards(LabelConfig(deals=100_000, deals_per_shard=1), tmp_path)
    assert [next(todo), next(todo)] == [0, 1] and len(checked) == 2


@pytest.mark.parametrize("data, message", [
    ({}, "the labels config has no 'deals' field"),
    ([], "a labels config must be a mapping of its fields, got \\[\\]"),
    (dict(LabelConfig().to_dict(), colour="red"), "unknown labels config field 'colour'"),
    (dict(LabelConfig().to_dict(), rules={"roem": "x"}), "rules: rule roem='x' is not allowed"),
    (dict(LabelConfig().to_dict(), objectives=None), "objectives must be a tuple"),
])
def test_a_config_dict_that_is_not_one_is_a_labels_error_naming_the_field(data, message):
    with pytest.raises(LabelsError, match=message):
        LabelConfig.from_dict(data)


def test_generate_wants_a_label_config(tmp_path):
    with pytest.raises(LabelsError, match="config must be a LabelConfig, got {'deals': 2}"):
        generate({"deals": 2}, tmp_path)


@pytest.mark.parametrize("manifest", ['{"config": []}', '[]', '{"shards": {}}', '"text"',
                                      '{"config": {"deals": 6}}', '{not json'])
def test_a_manifest_that_is_not_ours_is_refused_naming_it(tmp_path, manifest):
    (tmp_path / MANIFEST).write_text(manifest)
    with pytest.raises(LabelsError, match=f"{tmp_path / MANIFEST} is not a labels manifest: "
                                          f".*; use another folder"):
        generate(LabelConfig(format="npz", positions="root", **SMALL), tmp_path, workers=1)


def test_a_rerun_with_other_rules_names_the_rule_options_that_differ(tmp_path):
    generate(LabelConfig(format="npz", positions="root", deals=1), tmp_path, workers=1)
    with pytest.raises(LabelsError) as caught:
        generate(LabelConfig(format="npz", positions="root", deals=1,
                             rules=Rules(roem="none", multiplier=2)), tmp_path)
    assert str(caught.value) == (
        f"{tmp_path} holds a run with rules roem='table', rules multiplier=1, not rules "
        f"roem='none', rules multiplier=2: use another folder, or the same options to resume")


def closed_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("address, message", [
    ("garbage", "scheduler 'garbage' is not a Dask scheduler address: give tcp://host:port"),
    ("", "scheduler '' is not a Dask scheduler address"),
    ("tcp://", "scheduler 'tcp://' is not a Dask scheduler address"),
    ("tcp://host:99999", "scheduler 'tcp://host:99999' is not a Dask scheduler address"),
    (None, "cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: Connection refused"),
])
def test_a_bad_scheduler_address_fails_at_once(tmp_path, address, message):
    port = closed_port()
    start = time.monotonic()
    with pytest.raises(LabelsError, match=message.format(port=port)):
        generate(LabelConfig(format="npz", positions="root", deals=1), tmp_path,
                 scheduler=address if address is not None else f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - start < 2 and list(tmp_path.iterdir()) == []


def test_an_address_where_something_else_answers_is_not_taken_for_a_scheduler(tmp_path):
    pytest.importorskip("distributed")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()

        def answer_like_a_web_server():
            try:
                while True:
                    connection, _ = server.accept()
                    with connection:
                        connection.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
            except OSError:     # the test is over: the server is closed
                pass
        threading.Thread(target=answer_like_a_web_server, daemon=True).start()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        start = time.monotonic()
        with pytest.raises(LabelsError, match=f"^{address} answers, but not as a Dask scheduler"):
            generate(LabelConfig(format="npz", positions="root", deals=1), tmp_path,
                     scheduler=address)
        assert time.monotonic() - start < 5


def test_a_dask_run_keeps_a_few_shards_in_flight_not_all_of_them(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    submitted, written, in_flight = [], [], []
    real_submit, real_write = distributed.Client.submit, run_module.write_atomically

    def submit(client, *args, **kwargs):
        submitted.append(args[2])
        in_flight.append(len(submitted) - len(written))
        return real_submit(client, *args, **kwargs)

    def write(path, data):
        written.append(path)
        real_write(path, data)
    monkeypatch.setattr(distributed.Client, "submit", submit)
    monkeypatch.setattr(run_module, "write_atomically", write)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        generate(LabelConfig(format="npz", positions="root", deals=16, deals_per_shard=1),
                 tmp_path, scheduler=cluster.scheduler_address)
    assert sorted(submitted) == list(range(16)) and max(in_flight) <= 5     # 4, and the next
