"""The errors users see. All share `SolverError` (a ValueError), and every message names the
card, seat, field or option that is wrong, quoting at most about 80 characters of the input."""
import operator
from collections.abc import Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence, Type

if TYPE_CHECKING:   # for the checker only: this module imports nothing of the package
    from .model.cards import Card, Seat

QUOTE_LIMIT = 80


class SolverError(ValueError):
    """Bad input to any part of the package: catch this one class to catch them all."""


class NotationError(SolverError):
    """A card, suit, rank, seat or team that cannot be read."""


class DealError(SolverError):
    """A deal that is not four hands of 8 cards covering the 32 cards once each."""


class RulesError(SolverError):
    """An unknown rule option, or a value the option does not allow."""


class IllegalPlayError(SolverError):
    """A card that may not be played: not in the hand, or breaking a duty of the rules."""

    # The card, seat, trick number (1..9) and duty of the play, where they are known: duty is
    # "follow suit", "overtrump", "trump" or "undertrump", or "hold", "over" or "notation" for
    # a card the seat does not hold, a card after the round, or one that cannot be read.
    def __init__(self, message: str, *, card: Optional["Card"] = None,
                 seat: Optional["Seat"] = None, trick: Optional[int] = None,
                 duty: Optional[str] = None) -> None:
        super().__init__(message)
        self.card = card
        self.seat = seat
        self.trick = trick
        self.duty = duty


class RecordError(SolverError):
    """A game record with a missing or malformed field, or a play that cannot have happened
    at a table (a card played twice, a card after the end of the round); the message names it."""


class LabelsError(SolverError):
    """A labels run or folder that cannot be used: a bad option (named), a folder holding
    another run, an unwritable output, or a shard or manifest that cannot be read (named)."""


class BotError(SolverError):
    """A bot or an arena that cannot be set up: a bot name that cannot be read, a policy
    file that cannot be loaded (named), an arena option out of range (named)."""


class TrainingError(SolverError):
    """A card network that cannot be trained: a labels folder without `sd_values` (named),
    PyTorch missing (the `[train]` extra), a training option out of range (named)."""


class ActionError(SolverError):
    """An action the OpenSpiel game or the PettingZoo environment does not allow now: one not
    among the state's legal actions or chance outcomes (named, with those that are), or a
    step before reset() or after the end of the round."""


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` cut to `limit` characters, ending in "..." when it was longer."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """`repr(value)`, cut to about `limit` characters so that an error stays one short line."""
    try:
        text = repr(value)
    except Exception:   # a broken or too deeply nested __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return shorten(text, limit)


def whole_number(name: str, value: Any, least: Optional[int] = None,
                 most: Optional[int] = None, error: Type[SolverError] = SolverError) -> int:
    """`value` as a plain int when it is a whole number from `least` to `most` (either may be
    None); NumPy integers are accepted, booleans and floats are not. Otherwise `error`, naming
    `name` and what is allowed.

    >>> whole_number("workers", 2, least=1)
    2
    >>> whole_number("workers", 0, least=1)
    Traceback (most recent call last):
    ...
    solver.errors.SolverError: workers must be a whole number of at least 1, got 0
    """
    number: Optional[int] = None
    if not isinstance(value, (bool, float)):
        try:
            number = operator.index(value)
        except TypeError:
            pass
    if number is None or (least is not None and number < least) or (
            most is not None and number > most):
        if least is not None and most is not None:
            allowed = f"from {least} to {most}"
        elif least is not None:
            allowed = f"of at least {least}"
        elif most is not None:
            allowed = f"of at most {most}"
        else:
            allowed = ""
        raise error(f"{name} must be a whole number{' ' + allowed if allowed else ''}, "
                    f"got {quote(value)}")
    return number


def choice(name: str, value: Any, allowed: Sequence[str],
           error: Type[SolverError] = SolverError) -> str:
    """`value` when it is one of the strings `allowed`; otherwise `error`, naming `name` and
    the choices.

    >>> choice("format", "npz", ("parquet", "npz"))
    'npz'
    >>> choice("format", "csv", ("parquet", "npz"))
    Traceback (most recent call last):
    ...
    solver.errors.SolverError: format 'csv' is not allowed: choose one of parquet, npz
    """
    if not isinstance(value, str) or value not in allowed:
        raise error(f"{name} {quote(value)} is not allowed: choose one of {', '.join(allowed)}")
    return value


@contextmanager
def reading_fields(what: str, data: Any, error: Type[SolverError] = SolverError) -> Iterator[None]:
    """Read the fields of `data`, the dict a result's `to_dict()` wrote, in the `with` block: a
    missing field or one of the wrong shape is `error`, naming `what` and the field.

    >>> with reading_fields("a solve result", {}) as _:
    ...     {}["objective"]
    Traceback (most recent call last):
    ...
    solver.errors.SolverError: a solve result has no 'objective' field
    """
    if not isinstance(data, Mapping):
        raise error(f"{what} must be a dict of its fields, as to_dict() writes it, got "
                    f"{quote(data)}")
    try:
        yield
    except SolverError as err:
        raise error(f"{what}: {err}") from None
    except KeyError as err:
        raise error(f"{what} has no {quote(err.args[0] if err.args else None, 40)} "
                    f"field") from None
    except (TypeError, AttributeError, ValueError, IndexError) as err:
        raise error(f"{what} has a field of the wrong shape: {shorten(str(err))}") from None
