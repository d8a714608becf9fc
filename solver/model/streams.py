"""Seeded random streams that are the same on every machine: `SplitMix64` and `derive`, from
which every seeded draw in the package (deals, label streams, worlds) is taken.

>>> SplitMix64(7).below(4) == SplitMix64(7).below(4)
True
"""
from __future__ import annotations

import operator


def derive(*parts: int) -> int:
    """A 64-bit seed mixed from `parts` by SplitMix64 steps: an independent stream for every
    (seed, deal number, purpose), the same on every machine."""
    state = 0
    for part in parts:
        # operator.index: a NumPy integer (a label column's deal_id) mixes as its value.
        state = SplitMix64(state ^ (operator.index(part) & SplitMix64.MASK)).next()
    return state


class SplitMix64:
    """A tiny, fully specified generator: the same stream everywhere."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = operator.index(seed) & self.MASK

    def next(self) -> int:
        """The next 64-bit number of the stream."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number from 0 to n - 1, every one equally likely."""
        # Rejection sampling keeps every value equally likely.
        n = operator.index(n)
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n
