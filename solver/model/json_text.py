"""JSON text as the package reads it: records and rules, with absurdly long integers refused
by the field that holds them (Python itself refuses integers of more than 4,300 digits, with a
ValueError that names nothing)."""
from __future__ import annotations

import json
from typing import Any, List, Tuple, Type

from ..errors import SolverError, quote

# No option or field takes a number anywhere near this long.
MOST_DIGITS = 100


class _TooLong:
    def __init__(self, digits: int) -> None:
        self.digits = digits


def _integer_or_too_long(text: str) -> Any:
    digits = len(text.lstrip("-"))
    return _TooLong(digits) if digits > MOST_DIGITS else int(text)


def load_json(text: Any, what: str, error: Type[SolverError] = SolverError) -> Any:
    """The value of JSON `text`; `error` names `what` when the text is not JSON, and the field
    that holds an integer of more than MOST_DIGITS digits.

    >>> load_json('{"multiplier": 2}', "rules")
    {'multiplier': 2}
    >>> load_json('{"rules": {"pit_bonus": ' + "9" * 200 + '}}', "game record")
    Traceback (most recent call last):
    ...
    solver.errors.SolverError: game record: field 'rules.pit_bonus' is out of range: a whole number of 200 digits
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise error(f"{what} must be JSON text, got {quote(text)}")
    try:
        value = json.loads(text, parse_int=_integer_or_too_long)
    except json.JSONDecodeError as err:
        raise error(f"{what} is not valid JSON: {err}") from None
    except UnicodeDecodeError as err:
        raise error(f"{what} is not UTF-8 text: {err.reason} at offset {err.start}") from None
    except RecursionError:
        raise error(f"{what} is nested too deeply") from None
    _check_lengths(value, what, error)
    return value


def json_numbers_in_range(text: str, what: str, error: Type[SolverError] = SolverError) -> None:
    """Refuse a JSON integer of more than MOST_DIGITS digits in `text` (see `load_json`);
    text that is not JSON is left to the reader that reports it."""
    try:
        value = json.loads(text, parse_int=_integer_or_too_long)
    except (ValueError, RecursionError):
        return
    _check_lengths(value, what, error)


def _check_lengths(value: Any, what: str, error: Type[SolverError]) -> None:
    # Walked with a stack, not recursion: the JSON may be nested as deeply as the parser allows.
    stack: List[Tuple[str, object]] = [("", value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, _TooLong):
            field = f"field {quote(where, 40)}" if where else "the number"
            raise error(f"{what}: {field} is out of range: a whole number of {item.digits} "
                        f"digits")
        if isinstance(item, dict):
            stack += [(f"{where}.{key}" if where else str(key), v) for key, v in item.items()]
        elif isinstance(item, list):
            stack += [(f"{where}[{i}]", v) for i, v in enumerate(item)]
