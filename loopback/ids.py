"""Snowflakes, timestamps and the fake's injectable clock."""

from __future__ import annotations

import datetime
import itertools
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Realistic, strictly increasing snowflakes (discord.py reads their creation time)."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)
        self._last = value = max(value, self._last + 1)
        return value

    def next_on_shard(self, number: int, total: int) -> int:
        """The next snowflake whose guild would be on shard ``number`` of ``total``
        (``(id >> 22) % total == number``): a few milliseconds later if need be."""
        value = self.next()
        value += ((number - (value >> 22)) % total) << 22
        self._last = max(self._last, value)
        return value


class Clock:
    """Seconds on a monotonic clock that a test may push forward.

    The fake measures interaction deadlines (3 s to answer, 15 min token life) with it, so a
    test can say ``fake.clock.advance(901)`` instead of waiting. ``source`` may be replaced by
    any zero-argument callable returning seconds.
    """

    def __init__(self, source=time.monotonic) -> None:
        self._source = source
        self._offset = 0.0

    def __call__(self) -> float:
        return self._source() + self._offset

    def advance(self, seconds: float) -> None:
        self._offset += seconds


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()
