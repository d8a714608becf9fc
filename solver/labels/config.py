"""What a labels run writes: `LabelConfig` (every option that decides the rows) and the
schema of a row.

>>> config = LabelConfig(deals=10, deals_per_shard=4, positions="root", format="npz")
>>> config.shards, list(config.shard_deals(2))
(3, [8, 9])
>>> LabelConfig(trump="X")
Traceback (most recent call last):
...
solver.errors.LabelsError: trump: unknown suit 'X': use one of C, D, H, S (or ♣ ♦ ♥ ♠)
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Optional, Tuple

from ..errors import LabelsError, NotationError, choice, quote, whole_number
from ..model.cards import Seat, Suit, Team
from ..model.rules import Rules

POSITIONS = ("root", "trick-starts", "all")
FORMATS = ("parquet", "npz")
EXTRA_OBJECTIVES = ("make", "score")
NOT_LEGAL = -32768

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
}

# The options fixed for every deal when given, each read by its notation.
_FIXED = (("trump", Suit.parse), ("leader", Seat.parse), ("playing", Team.parse))


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
        for name, least in (("deals", 1), ("deals_per_shard", 1), ("worlds", 0), ("seed", 0)):
            self._set(name, whole_number(name, getattr(self, name), least=least,
                                         error=LabelsError))
        if not isinstance(self.rules, Rules):
            raise LabelsError(f"rules must be a Rules, got {quote(self.rules)}")
        choice("positions", self.positions, POSITIONS, error=LabelsError)
        choice("format", self.format, FORMATS, error=LabelsError)
        self.optimal_share()      # checks `play`
        objectives = tuple(self.objectives)
        for objective in objectives:
            choice("objective", objective, EXTRA_OBJECTIVES, error=LabelsError)
        self._set("objectives", tuple(sorted(set(objectives))))
        for name, parse in _FIXED:
            value = getattr(self, name)
            if value is not None:
                try:
                    self._set(name, parse(value))
                except NotationError as err:
                    raise LabelsError(f"{name}: {err}") from err

    def _set(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)     # frozen: only __post_init__ normalises

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
        for name, _ in _FIXED:
            value = getattr(self, name)
            data[name] = value.name if value is not None else None
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "LabelConfig":
        return cls(**dict(data, rules=Rules.from_dict(data["rules"]),
                          objectives=tuple(data["objectives"])))


def schema(config: LabelConfig) -> Dict[str, Tuple[str, Optional[int], str]]:
    """The columns `config` writes, in order: SCHEMA, then its extra objectives and sd_values."""
    extra = list(config.objectives) + (["sd_values"] if config.worlds else [])
    return {**SCHEMA, **{name: EXTRA_SCHEMA[name] for name in extra}}
