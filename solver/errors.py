"""The errors users see. All share `SolverError` (a ValueError), and every message names the
card, seat, field or option that is wrong, quoting at most about 80 characters of the input."""
from typing import Any

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

    def __init__(self, message: str, *, card=None, seat=None, trick=None, duty=None):
        super().__init__(message)
        self.card = card
        self.seat = seat
        self.trick = trick
        self.duty = duty


class RecordError(SolverError):
    """A game record with a missing or malformed field, or a play that cannot have happened
    at a table (a card played twice, a card after the end of the round); the message names it."""


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
