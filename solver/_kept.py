"""A few dozen results kept by what they depend on: `keep(cache, key, value)`.

A caller that asks again and again about the same few rounds (a loop over positions, a bot's
moves) keeps what they came to in a plain dict; when it holds `MOST_KEPT`, all of it is
forgotten at once, which costs less than keeping the oldest order (a loop comes back to what it
needs within a call or two).

Needs only the standard library: every layer may use it.
"""
from typing import Dict, TypeVar

K = TypeVar("K")
V = TypeVar("V")

MOST_KEPT = 64


def keep(cache: Dict[K, V], key: K, value: V) -> V:
    """Put `value` in `cache` under `key` (emptying a full cache first) and return it."""
    if len(cache) >= MOST_KEPT:
        cache.clear()
    cache[key] = value
    return value
