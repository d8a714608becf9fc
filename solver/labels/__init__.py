"""Training labels in bulk: positions with the exact value of every legal card, written in
shards, deterministic whatever runs them, and resumable.

>>> from solver.labels import LabelConfig, generate
>>> summary = generate(LabelConfig(deals=4, positions="root", format="npz"), "labels/")

Deal i of a stream is `Deal.random(derive(seed, i, 0))`; its trump, leader and playing team
come from a second per-deal stream and its play from a third, so every row depends only on the
configuration and the deal's number: never on the worker count, the order shards finish in,
or the backend (local processes or a Dask cluster).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import time
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from .._version import __version__
from ..model.cards import Seat, Suit, Team
from ..model.deal import Deal
from ..model.streams import SplitMix64, derive
from ..errors import SolverError, quote
from ..model.game import Game
from ..model.rules import Rules

POSITIONS = ("root", "trick-starts", "all")
FORMATS = ("parquet", "npz")
EXTRA_OBJECTIVES = ("make", "score")
NOT_LEGAL = -32768
MANIFEST = "manifest.json"

# name -> (dtype, width or None for a scalar, meaning): the schema of one row.
SCHEMA: Dict[str, Tuple[str, Optional[int], str]] = {
    "deal_id": ("int64", None, "the deal's number in the stream"),
    "deal": ("int8", 32, "the seat (0..3 = N E S W) dealt card index i"),
    "trump": ("int8", None, "trump suit 0..3 (C D H S)"),
    "leader": ("int8", None, "the seat that led trick 1"),
    "playing": ("int8", None, "the playing team, 0 NS or 1 EW"),
    "played": ("int8", 32, "card indices played so far, in order, padded with -1"),
    "to_move": ("int8", None, "the seat to play"),
    "values": ("int16", 32, "points value of each legal card for the team to move; -32768 if not legal"),
    "best": ("int16", None, "the best of values"),
}
EXTRA_SCHEMA = {
    "sd_values": ("float32", 32, "with worlds: each legal card's points value for the team to "
                                 "move, averaged over worlds the seat to move cannot tell apart; "
                                 "NaN if not legal"),
    "make": ("int8", 32, "1 if the team to move reaches its aim after the card (the playing "
                         "team makes it, the defenders make it nat), 0 if not, -1 if not legal"),
    "score": ("int16", 32, "score value of each legal card for the team to move; -32768 if not legal"),
}


class LabelsError(SolverError):
    """A labels run that cannot go on: a folder holding another run, an unwritable output."""


@dataclass(frozen=True)
class LabelConfig:
    """Everything that decides the rows. Two runs with equal configs write identical shards."""

    deals: int = 1000
    seed: int = 0
    rules: Rules = field(default_factory=Rules)
    positions: str = "trick-starts"
    play: str = "optimal"                   # "optimal", "random" or "mixed:P"
    skip_forced: bool = False
    objectives: Tuple[str, ...] = ()        # extra columns besides points: "make", "score"
    trump: Optional[Suit] = None            # fixed for every deal, or drawn per deal
    leader: Optional[Seat] = None
    playing: Optional[Team] = None
    deals_per_shard: int = 1000
    format: str = "parquet"
    worlds: int = 0                         # > 0: also the single-dummy means (sd_values)

    def __post_init__(self) -> None:
        for name in ("deals", "deals_per_shard"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise LabelsError(f"{name} must be a whole number of at least 1, got {quote(value)}")
        if isinstance(self.worlds, bool) or not isinstance(self.worlds, int) or self.worlds < 0:
            raise LabelsError(f"worlds must be a whole number of at least 0, got {quote(self.worlds)}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise LabelsError(f"seed must be a whole number of at least 0, got {quote(self.seed)}")
        if not isinstance(self.rules, Rules):
            raise LabelsError(f"rules must be a Rules, got {quote(self.rules)}")
        _choice("positions", self.positions, POSITIONS)
        _choice("format", self.format, FORMATS)
        self.optimal_share()      # checks `play`
        objectives = tuple(self.objectives)
        for objective in objectives:
            _choice("objective", objective, EXTRA_OBJECTIVES)
        object.__setattr__(self, "objectives", tuple(sorted(set(objectives))))
        for name, parse in (("trump", Suit.parse), ("leader", Seat.parse), ("playing", Team.parse)):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, parse(getattr(self, name)))

    def optimal_share(self) -> float:
        """The probability of an optimal card between labelled positions."""
        if self.play == "optimal":
            return 1.0
        if self.play == "random":
            return 0.0
        if isinstance(self.play, str) and self.play.startswith("mixed:"):
            try:
                share = float(self.play[6:])
            except ValueError:
                share = -1.0
            if 0.0 <= share <= 1.0:
                return share
        raise LabelsError(f"play {quote(self.play)} is not optimal, random or mixed:P with P "
                          f"from 0 to 1 (mixed:0.8, say)")

    @property
    def shards(self) -> int:
        return -(-self.deals // self.deals_per_shard)

    def shard_deals(self, shard: int) -> range:
        return range(shard * self.deals_per_shard, min(self.deals, (shard + 1) * self.deals_per_shard))

    def to_dict(self) -> Dict[str, Any]:
        data = asdict(self)
        data["rules"] = self.rules.to_dict()
        data["objectives"] = list(self.objectives)
        for name in ("trump", "leader", "playing"):
            value = getattr(self, name)
            data[name] = value.name if value is not None else None
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "LabelConfig":
        return cls(**dict(data, rules=Rules.from_dict(data["rules"]),
                          objectives=tuple(data["objectives"])))


def _choice(name: str, value: Any, allowed: Sequence[str]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise LabelsError(f"{name} {quote(value)} is not one of {', '.join(allowed)}")


# -- one deal's rows ----------------------------------------------------------------------------

def deal_setup(config: LabelConfig, deal_id: int) -> Tuple[Deal, Suit, Seat, Team]:
    """Deal `deal_id` of the stream, with its trump, leader and playing team."""
    deal = Deal.random(derive(config.seed, deal_id, 0))
    rng = SplitMix64(derive(config.seed, deal_id, 1))
    trump, leader, playing = Suit(rng.below(4)), Seat(rng.below(4)), Team(rng.below(2))
    return (deal, config.trump if config.trump is not None else trump,
            config.leader if config.leader is not None else leader,
            config.playing if config.playing is not None else playing)


def _labelled(config: LabelConfig, cards_played: int) -> bool:
    if config.positions == "root":
        return cards_played == 0
    if config.positions == "trick-starts":
        return cards_played % 4 == 0
    return True


def _last_labelled(config: LabelConfig) -> int:
    return {"root": 0, "trick-starts": 28, "all": 31}[config.positions]


def deal_rows(config: LabelConfig, deal_id: int, solver) -> List[Dict[str, Any]]:
    """The rows of one deal: the round is played by `config.play`, labelling as it goes."""
    deal, trump, leader, playing = deal_setup(config, deal_id)
    game = Game(deal, trump, leader, playing, config.rules)
    rng = SplitMix64(derive(config.seed, deal_id, 2))
    optimal_share = config.optimal_share()
    seats = np.zeros(32, dtype=np.int8)
    for seat in Seat:
        for card in deal[seat]:
            seats[card.index] = seat
    rows = []
    for cards_played in range(_last_labelled(config) + 1):
        legal = game.legal_cards()
        ours = game.to_move.team == playing
        best_card = None
        if _labelled(config, cards_played) and not (config.skip_forced and len(legal) == 1):
            row, best_card = _row(config, game, solver, ours, deal_id)
            row.update(deal_id=deal_id, deal=seats, trump=int(trump), leader=int(leader),
                       playing=int(playing))
            rows.append(row)
        if cards_played == _last_labelled(config):
            break
        # Every draw comes from this deal's own stream: rows never depend on scheduling.
        if len(legal) == 1:
            card = legal[0]
        elif optimal_share >= 1.0 or (optimal_share > 0.0 and rng.next() < optimal_share * 2**64):
            card = best_card if best_card is not None else solver.best_card(game)
        else:
            card = legal[rng.below(len(legal))]
        game.play(card)
    return rows


def _row(config: LabelConfig, game: Game, solver, ours: bool, deal_id: int):
    sign = 1 if ours else -1
    values = solver.move_values(game, "points")
    column = np.full(32, NOT_LEGAL, dtype=np.int16)
    for card, value in values.items():
        column[card.index] = sign * value
    best = max(sign * v for v in values.values())
    best_card = next(c for c in sorted(values) if sign * values[c] == best)
    played = np.full(32, -1, dtype=np.int8)
    played[:len(game.played)] = [c.index for c in game.played]
    row = {"played": played, "to_move": int(game.to_move), "values": column, "best": best}
    if "make" in config.objectives:
        make = np.full(32, -1, dtype=np.int8)
        for card, made in solver.move_values(game, "make").items():
            make[card.index] = int(made == ours)
        row["make"] = make
    if config.worlds:
        from ..analysis.view import analyse_view
        view = analyse_view(game, worlds=config.worlds, seed=derive(config.seed, deal_id, 3,
                            len(game.played)), solver=solver)
        means = np.full(32, np.nan, dtype=np.float32)
        for card, stats in view.cards.items():
            means[card.index] = stats.mean
        row["sd_values"] = means
    if "score" in config.objectives:
        score = np.full(32, NOT_LEGAL, dtype=np.int16)
        for card, value in solver.move_values(game, "score").items():
            score[card.index] = sign * value
        row["score"] = score
    return row, best_card


def schema(config: LabelConfig) -> Dict[str, Tuple[str, Optional[int], str]]:
    extra = list(config.objectives) + (["sd_values"] if config.worlds else [])
    return {**SCHEMA, **{name: EXTRA_SCHEMA[name] for name in extra}}


def shard_columns(config: LabelConfig, shard: int, solver=None) -> Dict[str, np.ndarray]:
    """The columns of one shard, as NumPy arrays in schema order."""
    solver = solver if solver is not None else _worker_solver(config.rules)
    rows = [row for deal_id in config.shard_deals(shard)
            for row in deal_rows(config, deal_id, solver)]
    columns = {}
    for name, (dtype, width, _) in schema(config).items():
        shape = (len(rows), width) if width else (len(rows),)
        columns[name] = np.array([row[name] for row in rows], dtype=dtype).reshape(shape)
    return columns


_SOLVERS: Dict[Tuple[Rules, int], Any] = {}


def _worker_solver(rules: Rules):
    """One Solver per process (or thread of a Dask worker), kept between shards."""
    from ..engine.search import Solver
    import threading
    key = (rules, threading.get_ident())
    if key not in _SOLVERS:
        _SOLVERS[key] = Solver(rules)
    return _SOLVERS[key]


def _timed_shard(config: LabelConfig, shard: int):
    start = time.perf_counter()
    columns = shard_columns(config, shard)
    return shard, columns, time.perf_counter() - start


# -- writing ------------------------------------------------------------------------------------

def shard_name(config: LabelConfig, shard: int) -> str:
    return f"shard-{shard:05d}.{config.format}"


def encode(config: LabelConfig, columns: Dict[str, np.ndarray]) -> bytes:
    """One shard file's bytes: the same columns give the same bytes."""
    if config.format == "npz":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, array in columns.items():
                # A fixed date: np.savez stamps the current time, which breaks identity.
                info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                with archive.open(info, "w") as member:
                    np.lib.format.write_array(member, np.ascontiguousarray(array))
        return buffer.getvalue()
    pa, pq = _pyarrow()
    arrays = {}
    for name, array in columns.items():
        if array.ndim == 2:
            arrays[name] = pa.FixedSizeListArray.from_arrays(pa.array(array.reshape(-1)), array.shape[1])
        else:
            arrays[name] = pa.array(array)
    buffer = io.BytesIO()
    pq.write_table(pa.table(arrays), buffer, compression="zstd")
    return buffer.getvalue()


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise LabelsError("Parquet output needs pyarrow: python -m pip install "
                          "'klaverjas-solver[labels]', or use --format npz") from None
    return pa, pq


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary name, then rename: a shard file is complete or absent."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except OSError as err:
        try:
            temporary.unlink()
        except OSError:
            pass
        raise LabelsError(f"cannot write {path}: {err.strerror or err}") from None


def load(folder) -> Dict[str, np.ndarray]:
    """Every shard of a labels folder, concatenated: {column: array}, rows in deal order."""
    folder = Path(folder)
    manifest = json.loads((folder / MANIFEST).read_text())
    config = LabelConfig.from_dict(manifest["config"])
    parts = []
    for shard in range(config.shards):
        path = folder / shard_name(config, shard)
        if config.format == "npz":
            with np.load(path) as data:
                parts.append({name: data[name] for name in data.files})
        else:
            _, pq = _pyarrow()
            table = pq.read_table(path)
            parts.append({name: _column(table[name]) for name in table.column_names})
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def _column(column) -> np.ndarray:
    import pyarrow as pa
    column = column.combine_chunks()
    if pa.types.is_fixed_size_list(column.type):
        return column.flatten().to_numpy().reshape(len(column), column.type.list_size)
    return column.to_numpy()


# -- a run ---------------------------------------------------------------------------------------

@dataclass
class Summary:
    """What a run did: rows written, shards done now and skipped, and the time it took."""

    rows: int
    shards_written: int
    shards_skipped: int
    seconds: float
    search_seconds: float

    def __str__(self) -> str:
        rate = self.rows / self.seconds if self.seconds else 0.0
        return (f"{self.rows} rows in {self.shards_written} new shards "
                f"({self.shards_skipped} already done), {self.seconds:.1f} s, {rate:.0f} rows/s")


def generate(config: LabelConfig, out, workers: Optional[int] = None,
             scheduler: Optional[str] = None, progress: bool = False,
             command: Optional[str] = None) -> Summary:
    """Write the labels of `config` into folder `out`; shards already there are kept.

    `workers` processes (default: all cores) share the shards; with `scheduler`, the address
    of a Dask scheduler, the shards run on that cluster instead. A folder that holds a run
    with other options is refused with the option that differs.
    """
    start = time.perf_counter()
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise LabelsError(f"cannot create the output folder {out}: {err.strerror or err}") from None
    manifest = _open_manifest(config, out, command)
    todo = [s for s in range(config.shards) if not (out / shard_name(config, s)).exists()]
    skipped = config.shards - len(todo)
    results = _run_shards(config, todo, workers, scheduler)
    bar = _progress_bar(config, skipped, progress)
    rows = 0
    search_seconds = 0.0
    try:
        for shard, columns, seconds in results:
            write_atomically(out / shard_name(config, shard), encode(config, columns))
            count = len(columns["deal_id"])
            rows += count
            search_seconds += seconds
            if bar is not None:
                bar.update(len(config.shard_deals(shard)))
                bar.set_postfix_str(f"{rows / (time.perf_counter() - start):.0f} rows/s")
    finally:
        if bar is not None:
            bar.close()
    _finish_manifest(manifest, config, out)
    return Summary(rows, len(todo), skipped, time.perf_counter() - start, search_seconds)


def _progress_bar(config: LabelConfig, skipped: int, enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm
    done = sum(len(config.shard_deals(s)) for s in range(skipped))
    return tqdm(total=config.deals, initial=done, unit="deal", file=sys.stderr,
                dynamic_ncols=True)


def _run_shards(config: LabelConfig, todo: List[int], workers: Optional[int],
                scheduler: Optional[str]) -> Iterable[Tuple[int, Dict[str, np.ndarray], float]]:
    """(shard, columns, seconds) for every shard in `todo`, in the order they finish.

    Worker processes start here, before any progress-bar thread exists (they are forked)."""
    if scheduler is not None:
        return _run_on_dask(config, todo, scheduler)
    workers = workers if workers is not None else (os.cpu_count() or 1)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise LabelsError(f"workers must be a whole number of at least 1, got {quote(workers)}")
    if workers == 1 or len(todo) <= 1:
        return (_timed_shard(config, shard) for shard in todo)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    # fork on Linux: no `if __name__ == "__main__"` needed in the caller's script.
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    executor = ProcessPoolExecutor(min(workers, len(todo)), initializer=_ignore_interrupts,
                                   mp_context=multiprocessing.get_context(method))
    return _pool_results(executor, config, todo)


def _pool_results(executor, config: LabelConfig, todo: List[int]):
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool
    futures = [executor.submit(_timed_shard, config, shard) for shard in todo]
    try:
        for future in as_completed(futures):
            try:
                yield future.result()
            except BrokenProcessPool:
                raise LabelsError("a worker process died (killed, or out of memory); the "
                                  "complete shards are kept: run the same command again to "
                                  "finish") from None
    finally:
        # Ctrl-C or an error: stop the workers now rather than after their current shard.
        # (Cancelling the futures first would race the executor's own clean-up thread.)
        for process in list(getattr(executor, "_processes", {}).values()):
            process.terminate()
        executor.shutdown(wait=True)


def _ignore_interrupts() -> None:
    # Ctrl-C goes to the whole process group: the parent stops the pool, the workers wait.
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_on_dask(config: LabelConfig, todo: List[int], scheduler: str):
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise LabelsError("--scheduler needs Dask: python -m pip install "
                          "'klaverjas-solver[cluster]'") from None
    try:
        client = Client(scheduler, timeout="20s", set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise LabelsError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    try:
        futures = [client.submit(_timed_shard, config, shard, pure=False) for shard in todo]
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        client.close()


def _open_manifest(config: LabelConfig, out: Path, command: Optional[str]) -> Dict[str, Any]:
    path = out / MANIFEST
    wanted = config.to_dict()
    if path.exists():
        try:
            manifest = json.loads(path.read_text())
            earlier = manifest["config"]
        except (OSError, ValueError, KeyError, TypeError):
            raise LabelsError(f"{path} is not a labels manifest: use an empty folder") from None
        for name in wanted:
            if earlier.get(name) != wanted[name]:
                raise LabelsError(
                    f"{out} holds a run with {name}={json.dumps(earlier.get(name))}, not "
                    f"{json.dumps(wanted[name])}: use another folder, or the same options to resume")
        return manifest
    manifest = {"config": wanted, "objective": "points",
                "extra_objectives": list(config.objectives),
                "values_view": "the team to move", "command": command,
                "version": __version__,
                "schema": {name: {"dtype": d, "shape": [w] if w else [], "meaning": m}
                           for name, (d, w, m) in schema(config).items()},
                "shards": {}}
    write_atomically(path, _json_bytes(manifest))
    return manifest


def _finish_manifest(manifest: Dict[str, Any], config: LabelConfig, out: Path) -> None:
    shards = {}
    for shard in range(config.shards):
        name = shard_name(config, shard)
        data = (out / name).read_bytes()
        shards[name] = {"deals": [config.shard_deals(shard).start, config.shard_deals(shard).stop],
                        "sha256": hashlib.sha256(data).hexdigest()}
    manifest["shards"] = shards
    manifest["complete"] = True
    write_atomically(out / MANIFEST, _json_bytes(manifest))


def _json_bytes(data: Dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2) + "\n").encode()
