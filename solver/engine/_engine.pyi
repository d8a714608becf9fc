# Type stub for the compiled module solver/_engine.pyx.
from enum import IntEnum
from typing import List, Sequence, Tuple

Position = Tuple[Sequence[Sequence[int]], Sequence[int], int, Tuple[int, int], Tuple[int, int],
                 Tuple[int, int], int]

class Undertrump(IntEnum):
    UNDERTRUMP_FORBIDDEN = 0
    UNDERTRUMP_MUST = 1
    UNDERTRUMP_FREE = 2

class Nat(IntEnum):
    NAT_MAJORITY = 0
    NAT_82 = 1
    NAT_NONE = 2

class Pit(IntEnum):
    PIT_ANY = 0
    PIT_PLAYING = 1
    PIT_NONE = 2

class Metric(IntEnum):
    METRIC_POINTS = 0
    METRIC_CARDS = 1
    METRIC_SCORE = 2

INFINITY: int
BUILT_FROM: str

class Engine:
    def __init__(self, table_mb: int = ...) -> None: ...
    @property
    def table_entries(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def epoch(self) -> int: ...
    @property
    def searching(self) -> bool: ...
    def configure(self, spec: dict) -> None: ...
    def legal(self, position: Position) -> List[int]: ...
    def play(self, position: Position, card: int) -> Position: ...
    def final_value(self, position: Position, metric: int) -> int: ...
    def bounds(self, position: Position, metric: int) -> Tuple[int, int]: ...
    def search(self, position: Position, metric: int, alpha: int = ..., beta: int = ...) -> int: ...
    def child_values(self, position: Position, metric: int, window: int = ...) -> List[Tuple[int, int]]: ...
    def child_bounds(self, position: Position, metric: int, alpha: int, beta: int) -> List[Tuple[int, int]]: ...
    def line(self, position: Position, metric: int, low: int, high: int,
             max_cards: int = ...) -> List[int]: ...
