"""One object per objective and contract: what the search computes for it.

An `Objective` ("points", "score" or "make" under one set of rules, a trump round or ledig)
owns what that objective means to the engine: the metric its values are searched in, its
make test, the window that keeps a value along a line, how a value is checked, and the range
and unit of its values. `Solver`, the batch and the analyses ask it, instead of branching on
the objective's name or the contract. Values are seen from the playing team.

>>> from solver.model.rules import Rules
>>> points = objective_of(Rules(contract="ledig"), "points")
>>> points.unit, points.value_range, points.make_line
('tricks', (-8, 0), 0)
>>> objective_of(Rules(nat="82"), "make").test(Suit.H)[1]
82
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Dict, List, Optional, Protocol, Tuple

from .._kept import keep
from ..errors import SolverError, quote, whole_number
from ..model.cards import Suit
from ..model.rules import Rules
from ..model.scoring import (Value, card_points_to_make, check_objective,
                             make_is_points_above_zero, make_line, value_unit)
from ._compiled import engine as _engine

INFINITY = int(_engine.INFINITY)
# A window (metric, low, high): the values from low to high of the engine's metric.
Window = Tuple[int, int, int]


class PositionSearch(Protocol):
    """The engine's searches of one position, as an objective asks for them (`Solver` hands
    one over per call); cards are the engine's indices."""

    @property
    def trump(self) -> Optional[Suit]:
        """The round's trump (None in a ledig round without one)."""

    def search(self, metric: int, alpha: int = -INFINITY, beta: int = INFINITY) -> int:
        """The position's value of `metric`, exact inside (alpha, beta), else a bound."""

    def child_values(self, metric: int) -> List[Tuple[int, int]]:
        """(card, exact value of `metric`) for every legal card."""

    def child_bounds(self, metric: int, alpha: int, beta: int) -> List[Tuple[int, int]]:
        """(card, value of `metric` searched in (alpha, beta)) for every legal card."""


def engine_metric(rules: Rules, objective: str) -> int:
    """The engine's metric for `objective` ("points", or "score" of a trump round): in a
    ledig round, minus the bidder's tricks (its points; its score and make follow from it)."""
    if rules.contract == "ledig":
        return int(_engine.Metric.METRIC_LEDIG)
    return int(_METRICS[objective])


_METRICS = {"points": _engine.Metric.METRIC_POINTS, "score": _engine.Metric.METRIC_SCORE}


def make_test(rules: Rules, trump: Optional[Suit]) -> Tuple[int, int]:
    """(metric, threshold): the playing team makes it iff the engine's metric reaches
    threshold. `trump` is read only where card points decide it (nat="82"), and a trump round
    always has one."""
    if rules.contract == "ledig":
        return int(_engine.Metric.METRIC_LEDIG), 0     # minus the bidder's tricks: made at 0
    if not make_is_points_above_zero(rules):
        assert trump is not None
        return int(_engine.Metric.METRIC_CARDS), card_points_to_make(rules, trump)
    return int(_engine.Metric.METRIC_POINTS), 1


def score_is_points(rules: Rules) -> bool:
    """Whether a made round scores exactly its points difference: multiplier 1, no zero
    bonus, and nat by majority or none. Then if the playing team can make it (points > 0)
    the score value is the points value: it can force that difference, always made, and the
    defenders can hold it there or make it nat, which scores less. Under nat="none" every
    round is "made", so the two values are always equal."""
    return rules.multiplier == 1 and rules.zero_bonus == 0 and rules.nat in ("majority", "none")


class Objective(ABC):
    """What one objective means to the search under one set of rules (`objective_of`)."""

    # The engine metric whose exact value is this objective's value; None where the values
    # come another way (a make test, or ledig's score from its make).
    metric: Optional[int] = None
    # Whether the values are True/False (a make) rather than whole numbers.
    is_make = False

    def __init__(self, name: str, rules: Rules) -> None:
        self.name = name
        self.rules = rules

    def __repr__(self) -> str:
        return f"objective_of(Rules(contract={self.rules.contract!r}, ...), {self.name!r})"

    @property
    def unit(self) -> str:
        """What its values count: "points", "tricks" (ledig's points) or "made"."""
        return value_unit(self.rules, self.name)

    @property
    def make_line(self) -> Optional[int]:
        """The least value with which the playing team makes it, where the value alone
        decides it; None where the make is searched (`model.scoring.make_line`)."""
        return make_line(self.rules, self.name)

    @property
    @abstractmethod
    def value_range(self) -> Tuple[int, int]:
        """(least, most): every value lies in it (a make's as 0 and 1)."""

    @property
    def searched(self) -> "Objective":
        """The objective whose search gives this one's values (`value_of_make` maps a make
        to them where it is not this one)."""
        return self

    @property
    def solve_metric(self) -> Optional[int]:
        """The metric of which the engine's `solve` finds the value and the line's first card
        in one call; None where the value is searched apart first."""
        return self.metric

    def value_of_make(self, made: bool) -> Value:
        """This objective's value where the playing team makes it (`made`) or not, for an
        objective searched as a make."""
        raise NotImplementedError(f"{self.name} is not searched as a make")

    def search_test(self, trump: Optional[Suit]) -> Tuple[int, Optional[int]]:
        """(metric, threshold) the batch searches: the values of the metric, or with a
        threshold whether they reach it."""
        assert self.metric is not None, f"{self!r} is searched as {self.searched!r}"
        return self.metric, None

    @abstractmethod
    def value(self, at: PositionSearch) -> Value:
        """The exact value of the position."""

    @abstractmethod
    def move_values(self, at: PositionSearch) -> Dict[int, Value]:
        """{card index: value} for every legal card of the player to move."""

    @abstractmethod
    def keep(self, trump: Optional[Suit], value: Value) -> Window:
        """The window of the engine's metric a line stays in to keep `value`."""

    @abstractmethod
    def check_value(self, at: PositionSearch, value: object) -> None:
        """A SolverError unless `value` is the position's value, told by one search in the
        narrowest window around it where one tells it."""

    def _check_equal(self, value: object, actual: Value) -> None:
        if actual != value:
            raise SolverError(f"value {quote(value)} is not the value of the position for "
                              f"{self.name}: it is {actual}")


class Points(Objective):
    """A whole number searched as the engine's metric: points (the points difference, or
    in a ledig round minus the bidder's tricks), and the score of a trump round."""

    def __init__(self, name: str, rules: Rules) -> None:
        super().__init__(name, rules)
        self.metric = engine_metric(rules, name)

    @property
    def value_range(self) -> Tuple[int, int]:
        if self.rules.contract == "ledig":
            return -8, 0
        return -INFINITY + 1, INFINITY - 1

    def value(self, at: PositionSearch) -> Value:
        assert self.metric is not None
        return at.search(self.metric)

    def move_values(self, at: PositionSearch) -> Dict[int, Value]:
        # All cards in one engine call, best first, each in a window below the best value.
        assert self.metric is not None
        return {card: value for card, value in at.child_values(self.metric)}

    def keep(self, trump: Optional[Suit], value: Value) -> Window:
        assert self.metric is not None
        return self.metric, int(value), int(value)

    def check_value(self, at: PositionSearch, value: object) -> None:
        assert self.metric is not None
        number = whole_number(f"value for {self.name}", value, -INFINITY + 1, INFINITY - 1)
        least, most = self.value_range
        # Inside the open window (number - 1, number + 1) only the value itself can fall.
        if least <= number <= most and at.search(self.metric, number - 1, number + 1) == number:
            return
        self._check_equal(value, self.value(at))


class Score(Points):
    """The score of a trump round: where it is the points difference whenever the round is
    made (`score_is_points`), the cheaper points search gives it."""

    @property
    def solve_metric(self) -> Optional[int]:
        return None if score_is_points(self.rules) else self.metric

    def value(self, at: PositionSearch) -> Value:
        if not score_is_points(self.rules):
            return super().value(at)
        # A null window at 0 tells first whether the round is made (always under nat="none").
        points = int(_METRICS["points"])
        if self.rules.nat == "none" or at.search(points, 0, 1) >= 1:
            return at.search(points)
        # Not makeable: the defenders can hold it nat, so the score is below 1.
        assert self.metric is not None
        return at.search(self.metric, -INFINITY, 1)


class Make(Objective):
    """Whether the playing team makes it: a null-window test of `make_test`'s metric at its
    threshold."""

    is_make = True

    @property
    def value_range(self) -> Tuple[int, int]:
        return 0, 1

    def test(self, trump: Optional[Suit]) -> Tuple[int, int]:
        """(metric, threshold) of `make_test`."""
        return make_test(self.rules, trump)

    def search_test(self, trump: Optional[Suit]) -> Tuple[int, Optional[int]]:
        return self.test(trump)

    def value(self, at: PositionSearch) -> Value:
        metric, threshold = self.test(at.trump)
        return at.search(metric, threshold - 1, threshold) >= threshold

    def move_values(self, at: PositionSearch) -> Dict[int, Value]:
        # One null-window test at the threshold for every card, in one engine call.
        metric, threshold = self.test(at.trump)
        return {card: value >= threshold
                for card, value in at.child_bounds(metric, threshold - 1, threshold)}

    def keep(self, trump: Optional[Suit], value: Value) -> Window:
        # Made: the metric stays at the threshold or above; not made: below it.
        metric, threshold = self.test(trump)
        return (metric, threshold, INFINITY) if value else (metric, -INFINITY, threshold - 1)

    def check_value(self, at: PositionSearch, value: object) -> None:
        if not isinstance(value, bool):
            raise SolverError(f"value for make must be True or False, got {quote(value)}")
        self._check_equal(value, self.value(at))


class LedigScore(Objective):
    """The score of a ledig round: +ledig_bonus when the bidder takes no trick (its make),
    -ledig_bonus otherwise."""

    def __init__(self, name: str, rules: Rules) -> None:
        super().__init__(name, rules)
        self.make = Make("make", rules)

    @property
    def value_range(self) -> Tuple[int, int]:
        return -self.rules.ledig_bonus, self.rules.ledig_bonus

    @property
    def searched(self) -> Objective:
        return self.make

    def value_of_make(self, made: bool) -> Value:
        return self.rules.ledig_bonus if made else -self.rules.ledig_bonus

    def value(self, at: PositionSearch) -> Value:
        return self.value_of_make(bool(self.make.value(at)))

    def move_values(self, at: PositionSearch) -> Dict[int, Value]:
        return {card: self.value_of_make(bool(made))
                for card, made in self.make.move_values(at).items()}

    def keep(self, trump: Optional[Suit], value: Value) -> Window:
        if self.rules.ledig_bonus == 0:
            # Every card scores 0, made or not: every card keeps the value.
            return int(_engine.Metric.METRIC_LEDIG), -INFINITY, INFINITY
        return self.make.keep(trump, value > 0)    # +ledig_bonus: the bidder takes no trick

    def check_value(self, at: PositionSearch, value: object) -> None:
        whole_number(f"value for {self.name}", value)
        self._check_equal(value, self.value(at))


# Each thread may ask for the same rules' objectives over and over: kept by the Rules
# object's identity (hashing a Rules costs more than building the object).
_MADE: Dict[Tuple[int, str], Objective] = {}


def objective_of(rules: Rules, objective: str) -> Objective:
    """The `Objective` named `objective` ("points", "score" or "make") under `rules`.

    >>> objective_of(Rules(), "score").solve_metric is None    # the points search gives it
    True
    """
    check_objective(objective)
    key = (id(rules), objective)
    known = _MADE.get(key)
    if known is not None and known.rules is rules:
        return known
    if objective == "make":
        made: Objective = Make(objective, rules)
    elif objective == "points":
        made = Points(objective, rules)
    elif rules.contract == "ledig":
        made = LedigScore(objective, rules)
    else:
        made = Score(objective, rules)
    return keep(_MADE, key, made)
