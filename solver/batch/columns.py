"""A batch's arguments read into the engine's types. The engine trusts its arrays (it reads
them without bounds checks), so every array's shape, type and values are checked here before
anything reaches it: a bad one raises the package's error naming the argument, and for a bad
value its row and column, in one short line (no row is quoted whole)."""
from __future__ import annotations

import operator
from typing import Any, Callable, Dict, List, Optional, Tuple, Type

import numpy as np

from ..errors import SolverError, quote

# Cards per row: `deal` gives each card's seat, `played` one card per column.
CARDS = 32
# How much of a bad value an error quotes: the message stays one short line.
_QUOTED = 24


def _array(name: str, value: Any, error: Type[SolverError]) -> np.ndarray:
    """`value` as a NumPy array; a ragged list (rows of different lengths) is `error`."""
    try:
        result: np.ndarray = np.asarray(value)
        return result
    except (ValueError, TypeError, OverflowError):
        raise error(f"{name} is ragged or not an array: its rows must have one length "
                    f"(got {quote(value, _QUOTED)})") from None


def _whole_numbers(name: str, array: np.ndarray, error: Type[SolverError]) -> np.ndarray:
    """`array` when it holds whole numbers (or nothing); floats, booleans, text and other
    objects are `error`."""
    if array.size and array.dtype.kind not in "iu":
        raise error(f"{name} must hold whole numbers, got {array.dtype.name} values")
    return array


def _first_bad(array: np.ndarray, least: int, most: int) -> Optional[Tuple[int, ...]]:
    """The index of the first value of `array` outside least..most, or None."""
    bad = (array < least) | (array > most)
    return tuple(int(i) for i in np.argwhere(bad)[0]) if bad.any() else None


def card_matrix(name: str, value: Any, count: Optional[int], least: int, most: int,
                what: str, error: Type[SolverError]) -> np.ndarray:
    """int8[count, 32] (any number of rows for count None): `value` when it holds whole
    numbers from `least` to `most` (`what` says so in words), else `error`."""
    array = _whole_numbers(name, _array(name, value, error), error)
    rows = "rows" if count is None else count
    if array.ndim != 2 or array.shape[1] != CARDS or (count is not None
                                                      and array.shape[0] != count):
        per = "" if count is None else " (a row per row of the deal)"
        raise error(f"{name} must have shape ({rows}, {CARDS}){per}, got shape {array.shape}")
    bad = _first_bad(array, least, most)
    if bad is not None:
        row, column = bad
        raise error(f"row {row}: {name}[{column}] is {int(array[row, column])}, not {what}")
    result: np.ndarray = np.ascontiguousarray(array, dtype=np.int8)
    return result


def column(name: str, value: Any, count: int, least: int, most: int, what: str,
           error: Type[SolverError], parse: Optional[Callable[[str], int]] = None,
           rows: Optional[np.ndarray] = None) -> np.ndarray:
    """int8[count]: one whole number from `least` to `most` per row of the deal, or one for
    every row (`what` says what they are, in words); text is read by `parse` (a suit letter,
    say). `rows`: the rows picked, which the values are for (default: all)."""
    if value is None:
        raise error(f"{name} is needed: {what}, one per row or one for all")
    array = _array(name, value, error)
    if array.ndim > 1 or (array.ndim == 1 and array.shape[0] != count):
        per = "row of the deal" if rows is None else "row picked"
        raise error(f"{name} must have one value per {per} ({count}) or one for all, got "
                    f"shape {array.shape}")
    row_of: Callable[[int], int] = (lambda i: int(rows[i])) if rows is not None else (lambda i: i)
    where: Callable[[int], str] = ((lambda i: f"row {row_of(i)}: {name}") if array.ndim
                                   else (lambda i: name))
    if parse is not None and array.dtype.kind not in "iu":
        # Text, and anything else an error names by its row: floats, booleans, and whole
        # numbers beyond int64 that NumPy holds as floats or objects (read from the list).
        if not isinstance(value, np.ndarray):
            array = np.asarray(value, dtype=object)
        array = _read(array, parse, where, what, error)
    _whole_numbers(name, array, error)
    if array.ndim == 0:
        array = np.full(count, array)
    bad = _first_bad(array, least, most)
    if bad is not None:
        raise error(f"{where(bad[0])} is {int(array[bad])}, not {what}")
    result: np.ndarray = np.ascontiguousarray(array, dtype=np.int8)
    return result


def _read(array: np.ndarray, parse: Callable[[str], int], where: Callable[[int], str],
          what: str, error: Type[SolverError]) -> np.ndarray:
    """An array of text or other objects as whole numbers: text read by `parse` (each
    distinct text once), whole numbers as they are; anything else is `error` naming its row."""
    read: Dict[str, int] = {}
    numbers: List[int] = []
    for i, item in enumerate(array.reshape(-1).tolist()):
        if isinstance(item, str):
            if item not in read:
                try:
                    read[item] = int(parse(item))
                except SolverError:
                    raise error(f"{where(i)} is {quote(item, _QUOTED)}, not {what}") from None
            numbers.append(read[item])
            continue
        try:
            if isinstance(item, bool):
                raise TypeError
            numbers.append(operator.index(item))
        except TypeError:
            raise error(f"{where(i)} is {quote(item, _QUOTED)}, not {what}") from None
    numbers_array = np.array(numbers, dtype=object).reshape(array.shape)
    # Whole numbers beyond int64 stay objects: the range check still names them.
    try:
        result: np.ndarray = numbers_array.astype(np.int64)
        return result
    except OverflowError:
        bad = next(i for i, n in enumerate(numbers) if not -2**63 <= n < 2**63)
        raise error(f"{where(bad)} is {quote(numbers[bad], _QUOTED)}, not {what}") from None


def row_indices(value: Any, count: int) -> np.ndarray:
    """intp[n]: the rows `value` picks (all for None), each a row of a batch of `count`."""
    if value is None:
        result: np.ndarray = np.arange(count, dtype=np.intp)
        return result
    array = _whole_numbers("rows", _array("rows", value, SolverError), SolverError)
    if array.ndim != 1:
        raise SolverError(f"rows must be a list of row numbers, got shape {array.shape}")
    bad = _first_bad(array, 0, count - 1)
    if bad is not None:
        rows = f"a row 0..{count - 1}" if count else "a row: the batch has none"
        raise SolverError(f"rows[{bad[0]}] is {int(array[bad])}, not {rows}")
    return array.astype(np.intp)


def card_margins(value: Any, most: int) -> List[int]:
    """32 whole numbers 0..most, one per card index (0s for None, one for all cards)."""
    if value is None:
        return [0] * CARDS
    array = _whole_numbers("margin", _array("margin", value, SolverError), SolverError)
    if array.ndim == 0:
        array = np.full(CARDS, array)
    if array.shape != (CARDS,):
        raise SolverError(f"margin must have {CARDS} numbers (one per card index) or one for "
                          f"all, got shape {array.shape}")
    bad = _first_bad(array, 0, most)
    if bad is not None:
        raise SolverError(f"margin[{bad[0]}] is {int(array[bad])}, not 0..{most}")
    return [int(margin) for margin in array.tolist()]
