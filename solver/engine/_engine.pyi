# Type stub for the compiled module solver/engine/_engine.pyx.
from enum import IntEnum
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from typing_extensions import Self, disjoint_base

# (hands, trick, trick_leader, pts, roem, won, tricks_left), and optionally the tricks the
# bidder of a ledig round took so far (Engine.play gives it always).
_Position = Union[
    Tuple[Sequence[Sequence[int]], Sequence[int], int, Tuple[int, int], Tuple[int, int],
          Tuple[int, int], int],
    Tuple[Sequence[Sequence[int]], Sequence[int], int, Tuple[int, int], Tuple[int, int],
          Tuple[int, int], int, int]]

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
    METRIC_LEDIG = 3

MAX_AMOUNT: int
CARD_POINTS_TOTAL: int
MAKE_THRESHOLD: int
COUNTER_NAMES: Tuple[str, ...]
INFINITY: int
WITHOUT_TRUMP: int
BUILT_FROM: str
ORACLE_BUILD: bool

@disjoint_base
class Engine:
    def __new__(cls, table_mb: int) -> Self: ...
    @property
    def nodes(self) -> int: ...
    def counters(self) -> Dict[str, int]: ...
    def attach_oracle(self, oracle: Optional["Engine"], plies: int = ...) -> None: ...
    @property
    def epoch(self) -> int: ...
    @property
    def searching(self) -> bool: ...
    def configure(self, spec: Dict[str, Any]) -> None: ...
    def legal(self, position: _Position) -> List[int]: ...
    def play(self, position: _Position, card: int) -> _Position: ...
    def final_value(self, position: _Position, metric: int) -> int: ...
    def bounds(self, position: _Position, metric: int) -> Tuple[int, int]: ...
    def roem_to_come(self, position: _Position) -> int: ...
    def search(self, position: _Position, metric: int, alpha: int = ..., beta: int = ...) -> int: ...
    def child_values(self, position: _Position, metric: int, window: int = ...) -> List[Tuple[int, int]]: ...
    def child_bounds(self, position: _Position, metric: int, alpha: int, beta: int) -> List[Tuple[int, int]]: ...
    def line(self, position: _Position, metric: int, low: int, high: int, max_cards: int = ...,
             preferred: bool = ...) -> List[int]: ...
    def solve(self, position: _Position, metric: int) -> Tuple[int, List[int]]: ...
    def moves_after(self, hands: Sequence[int], leader: int, played: bytes, metric: int,
                    window: int = ...) -> Tuple[int, List[Tuple[int, int]]]: ...
    def solve_after(self, hands: Sequence[int], leader: int, played: bytes, metric: int
                    ) -> Tuple[int, int, List[int], Tuple[int, int]]: ...
    def position_after(self, hands: Sequence[int], leader: int, played: bytes
                       ) -> Tuple[int, Optional[_Position]]: ...
    def totals_after(self, position: _Position, line: Sequence[int]) -> Tuple[int, int]: ...
    def check_rows(self, specs: List[Dict[str, Any]], params_of: Any, hands: Any, leader: Any,
                   played: Any, status: Any, to_move: Any) -> None: ...
    def search_rows(self, specs: List[Dict[str, Any]], params_of: Any,
                    thresholds: List[Optional[int]], hands: Any, leader: Any, played: Any,
                    metric: int, out: Any, window: int = ..., lead: Any = ..., exact: Any = ...,
                    margin: Any = ..., given: Any = ...) -> int: ...
