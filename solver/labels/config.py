"""What a labels run writes: `LabelConfig` (every option that decides the rows) and the
schema of a row.

>>> config = LabelConfig(deals=10, deals_per_shard=4, positions="root", format="npz")
>>> config.shards, list(config.shard_deals(2))
(3, [8, 9])
>>> LabelConfig(trump="X")
Traceback (most recent call last):
...
solver.errors.LabelsError: trump: unknown suit 'X': use one of C, D, H, S (or ♣ ♦ ♥ ♠)
>>> LabelConfig(seed=4).differences(LabelConfig(seed=3))
'seed=4, not seed=3'
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Dict, List, Optional, Tuple

from ..errors import LabelsError, NotationError, SolverError, choice, quote, whole_number
from ..model.cards import Seat, Suit, Team
from ..model.label_row import NOT_LEGAL as NOT_LEGAL  # part of the schema: one definition
from ..model.rounds import RoundStream
from ..model.rules import Rules
from ..model.worlds import BELIEFS

POSITIONS = ("root", "trick-starts", "all")
FORMATS = ("parquet", "npz")
EXTRA_OBJECTIVES = ("make", "score")

# What a run may ask for, checked before anything is written. The shard count keeps a folder
# (and its manifest) a size a file system and a person can handle, and the five-digit shard
# names in order; a shard is built in memory, so its size is bounded too. Seeds are 64-bit.
MAX_SHARDS = 100_000
MAX_DEALS_PER_SHARD = 1_000_000
MAX_DEALS = MAX_SHARDS * MAX_DEALS_PER_SHARD
MAX_SEED = 2**64 - 1
_MIXED = re.compile(r"mixed:([0-9]+(\.[0-9]*)?|\.[0-9]+)")

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
EXTRA_SCHEMA: Dict[str, Tuple[str, Optional[int], str]] = {
    "sd_values": ("float32", 32, "with worlds: each legal card's points value for the team to "
                                 "move, averaged over worlds the seat to move cannot tell apart; "
                                 "NaN if not legal"),
    "make": ("int8", 32, "1 if the team to move reaches its aim after the card (the playing "
                         "team makes it, the defenders make it nat), 0 if not, -1 if not legal"),
    "score": ("int16", 32, "score value of each legal card for the team to move; -32768 if not legal"),
    "dummy": ("int8", None, "players=3: the dummy's seat, a seat of the playing team"),
}
# Under contract "ledig": the bidder, after `playing` (its team), in every row.
LEDIG_SCHEMA: Dict[str, Tuple[str, Optional[int], str]] = {
    "bidder": ("int8", None, "ledig: the seat that bid to take no trick; the values are minus "
                             "the tricks it takes, and trump is -1 without trump"),
}

# The options fixed for every deal when given, each read by its notation.
_FIXED = (("trump", Suit.parse), ("leader", Seat.parse), ("playing", Team.parse),
          ("dummy", Seat.parse), ("bidder", Seat.parse))
# Fields a config written before them may leave out (their default then holds).
_ADDED_LATER = ("dummy", "bidder", "belief")


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
    dummy: Optional[Seat] = None            # players=3: fixed for every deal, or drawn
    bidder: Optional[Seat] = None           # ledig: fixed for every deal, or drawn per deal
    belief: str = "uniform"                 # how sd_values' worlds are drawn: uniform or play

    def __post_init__(self) -> None:
        for name, least, most in (("deals", 1, MAX_DEALS),
                                  ("deals_per_shard", 1, MAX_DEALS_PER_SHARD),
                                  ("worlds", 0, None), ("seed", 0, MAX_SEED)):
            self._set(name, whole_number(name, getattr(self, name), least=least, most=most,
                                         error=LabelsError))
        if self.shards > MAX_SHARDS:
            raise LabelsError(
                f"deals={self.deals} in shards of {self.deals_per_shard} makes {self.shards} "
                f"shards; a run has at most {MAX_SHARDS}: raise deals_per_shard (up to "
                f"{MAX_DEALS_PER_SHARD}) to at least {-(-self.deals // MAX_SHARDS)}")
        if not isinstance(self.rules, Rules):
            raise LabelsError(f"rules must be a Rules, got {quote(self.rules)}")
        choice("positions", self.positions, POSITIONS, error=LabelsError)
        choice("format", self.format, FORMATS, error=LabelsError)
        self.optimal_share()      # checks `play`
        if not isinstance(self.skip_forced, bool):
            raise LabelsError(f"skip_forced must be True or False, got {quote(self.skip_forced)}")
        if isinstance(self.objectives, str) or not isinstance(self.objectives,
                                                              (tuple, list, set, frozenset)):
            raise LabelsError(f"objectives must be a tuple of names (make, score), got "
                              f"{quote(self.objectives)}")
        for objective in self.objectives:
            choice("objective", objective, EXTRA_OBJECTIVES, error=LabelsError)
        self._set("objectives", tuple(sorted(set(self.objectives))))
        for name, parse in _FIXED:
            value = getattr(self, name)
            if value is not None:
                try:
                    self._set(name, parse(value))
                except NotationError as err:
                    raise LabelsError(f"{name}: {err}") from err
        self._check_dummy()
        self._check_contract()
        self._check_belief()

    def _check_belief(self) -> None:
        """The belief names how sd_values' worlds are drawn: it needs worlds."""
        choice("belief", self.belief, BELIEFS, error=LabelsError)
        if self.belief != "uniform" and not self.worlds:
            raise LabelsError(f"belief={self.belief!r} draws the worlds of sd_values: give "
                              f"worlds too (worlds=32, --worlds 32)")

    def _check_dummy(self) -> None:
        """A table of three (docs/rules.md) needs a dummy of the playing team in every deal:
        a fixed one must agree with a fixed playing team; other tables have none."""
        if self.dummy is None:
            return
        if self.rules.players != 3:
            raise LabelsError(f"dummy={self.dummy.name} is for a table of three (rules "
                              f"players=3); these rules have players={self.rules.players}")
        if self.playing is not None and self.playing != self.dummy.team:
            raise LabelsError(f"dummy={self.dummy.name} is in team {self.dummy.team.name}, but "
                              f"the playing team is fixed to {self.playing.name}: the dummy's "
                              f"team is the playing team")
        if self.bidder is not None and self.bidder.team != self.dummy.team:
            raise LabelsError(f"dummy={self.dummy.name} is in team {self.dummy.team.name}, but "
                              f"the bidder {self.bidder.name} is not: the dummy's team is the "
                              f"playing team")

    def _check_contract(self) -> None:
        """Ledig's fixed seats: the bidder names the playing team; no trump unless
        ledig_trump is "chosen". A trump run has no bidder."""
        if self.rules.contract != "ledig":
            if self.bidder is not None:
                raise LabelsError(f"bidder={self.bidder.name} is for ledig (rules contract "
                                  f"'ledig', --contract ledig)")
            return
        if self.playing is not None:
            raise LabelsError("playing: in ledig the bidder's team plays; fix the bidder "
                              "instead (bidder=, --bidder)")
        if self.trump is not None and self.rules.ledig_trump == "none":
            raise LabelsError(f"trump={self.trump.name}: ledig has no trump unless the rules "
                              f"set ledig_trump 'chosen'")

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)     # frozen: only __post_init__ normalises

    def optimal_share(self) -> float:
        """The probability of an optimal card between labelled positions."""
        if self.play == "optimal":
            return 1.0
        if self.play == "random":
            return 0.0
        if isinstance(self.play, str) and _MIXED.fullmatch(self.play):
            share = float(self.play[6:])
            if share <= 1.0:
                return share
        raise LabelsError(f"play {quote(self.play)} is not optimal, random or mixed:P with P "
                          f"from 0 to 1 (mixed:0.8, say)")

    def rounds(self) -> RoundStream:
        """The run's seeded stream of rounds: deal i of the run is `rounds().round(i)`."""
        return RoundStream(self.seed, self.rules, self.trump, self.leader, self.playing,
                           self.bidder, self.dummy)

    @property
    def shards(self) -> int:
        return -(-self.deals // self.deals_per_shard)

    def shard_deals(self, shard: int) -> range:
        return range(shard * self.deals_per_shard, min(self.deals, (shard + 1) * self.deals_per_shard))

    def to_dict(self) -> Dict[str, Any]:
        data = asdict(self)
        data["rules"] = self.rules.to_dict()
        data["objectives"] = list(self.objectives)
        for name, _ in _FIXED:
            value = getattr(self, name)
            data[name] = value.name if value is not None else None
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "LabelConfig":
        """The config `to_dict` gave: every field present, no other; LabelsError naming the
        field that is missing, unknown or not allowed."""
        if not isinstance(data, dict):
            raise LabelsError(f"a labels config must be a mapping of its fields, got {quote(data)}")
        names = [f.name for f in fields(cls)]
        for name in data:
            if name not in names:
                raise LabelsError(f"unknown labels config field {quote(name)}: the fields are "
                                  f"{', '.join(names)}")
        for name in names:
            if name not in data and name not in _ADDED_LATER:
                raise LabelsError(f"the labels config has no {name!r} field")
        try:
            rules = Rules.from_dict(data["rules"])
        except SolverError as err:
            raise LabelsError(f"rules: {err}") from err
        objectives = data["objectives"]
        return cls(**dict(data, rules=rules, objectives=tuple(objectives)
                          if isinstance(objectives, list) else objectives))

    def differences(self, other: "LabelConfig") -> str:
        """The options in which this config and `other` differ, rule options one by one:
        "seed=4, rules roem='none', not seed=3, rules roem='table'"; empty when equal."""
        ours: List[str] = []
        theirs: List[str] = []
        mine, yours = self.to_dict(), other.to_dict()
        for name in mine:
            if name == "rules":
                for option, value in mine["rules"].items():
                    if value != yours["rules"].get(option):
                        ours.append(f"rules {option}={quote(value)}")
                        theirs.append(f"rules {option}={quote(yours['rules'].get(option))}")
            elif mine[name] != yours[name]:
                ours.append(f"{name}={quote(mine[name])}")
                theirs.append(f"{name}={quote(yours[name])}")
        return f"{', '.join(ours)}, not {', '.join(theirs)}" if ours else ""


def schema(config: LabelConfig) -> Dict[str, Tuple[str, Optional[int], str]]:
    """The columns `config` writes, in order: SCHEMA (under ledig with the bidder after
    "playing"), then its extra objectives, sd_values and, at a table of three, the dummy."""
    extra = list(config.objectives) + (["sd_values"] if config.worlds else []) + (
        ["dummy"] if config.rules.players == 3 else [])
    columns = dict(SCHEMA)
    if config.rules.contract == "ledig":     # after "playing", so a trump run's stay as they were
        columns = {}
        for name, column in SCHEMA.items():
            columns[name] = column
            if name == "playing":
                columns.update(LEDIG_SCHEMA)
    return {**columns, **{name: EXTRA_SCHEMA[name] for name in extra}}
