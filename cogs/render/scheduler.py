"""The REST budget of the whole process: who may make a rate-limited call now.

Discord allows a bot token about 50 rate-limited calls a second (interaction responses,
follow-ups and edits through the interaction token are free) and about 5 message creates
(and, separately, 5 edits) per 5 seconds in one channel. Every rate-limited call the
renderer makes first takes a slot here:

- **Priorities**: turn pings first (a player must learn it is their turn; closing the hand
  a player moved away from goes with them, as their next live hand waits for it), then
  table edits and posts, then clean-ups (a hand an AI took over). Within a priority, first
  come first served.
- **Global window**: at most `per_second` calls in any sliding second, counted from grant to
  a second after they finish (default 30: headroom under Discord's 50 for calls made outside
  the renderer, e.g. lobby messages, and for other processes sharing the token).
- **Evenly**: at most `burst` calls at once (a third of `per_second`), then one every
  `1 / per_second` seconds. The window alone let a full budget pulse: the calls granted
  together finished together, came free together a second later and were granted together
  again, so every second some 30 table edits (their pictures, their requests) held the event
  loop for tens of milliseconds and the interactions behind them waited (issue 14: the
  moves' tail came in clusters one second apart). Paced, the same calls are a steady trickle.
- **Per channel**: at most `channel_limit` creates and as many edits per `channel_period`
  seconds in one channel; a waiter whose channel is full does not block the others.

A table edit that waits for its slot shows the newest state when it gets it (the renderer
keeps one pending edit per game), so table edits coalesce exactly when the budget is short.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from enum import IntEnum

CLOCK_MARGIN = 0.15  # seconds added to Discord's channel window: our clock is not theirs


class Priority(IntEnum):
    PING = 0  # a player's turn: the DM that tells them, or closing the hand they left
    TABLE = 1  # the table, round summaries, notices in the channel
    CLEANUP = 2  # a hand whose seat an AI took over loses its buttons; Rematch offered again


@dataclass(order=True)
class _Waiter:
    priority: int
    seq: int
    bucket: tuple[int, str] | None = field(compare=False)
    granted: asyncio.Future[None] = field(compare=False)


class RestBudget:
    def __init__(
        self, *, per_second: int = 30, channel_limit: int = 5, channel_period: float = 5.0
    ) -> None:
        self.per_second = per_second
        self.channel_limit = channel_limit
        self.channel_period = channel_period
        self._recent: deque[float] = deque()  # loop times calls finished, the last second
        self._in_flight = 0  # granted calls not finished yet
        self._channels: dict[tuple[int, str], deque[float]] = {}
        self._waiters: list[_Waiter] = []
        self._seq = itertools.count()
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self.granted = 0  # slots handed out (for the benchmark and tests)
        self._tokens = float(self.burst)  # grants that may go now without waiting for pace
        self._tokens_at: float | None = None  # the loop time `_tokens` was counted at

    @property
    def burst(self) -> int:
        """How many calls may be granted at once after a quiet spell."""
        return max(1, self.per_second // 3)

    @contextlib.asynccontextmanager
    async def slot(
        self, priority: Priority, channel_id: int | None = None, kind: str = "create"
    ) -> AsyncIterator[None]:
        """`async with budget.slot(...)`: around one rate-limited call (`kind`: "create" or
        "edit" in `channel_id`; None for calls that only count globally).

        A call counts from its grant until a second after it finished: Discord counts it
        when it arrives, somewhere in between, so a busy event loop that sends granted calls
        late can never bunch more than `per_second` of them into one of Discord's seconds."""
        await self._granted(priority, channel_id, kind)
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        self._in_flight -= 1
        self._recent.append(asyncio.get_running_loop().time())
        self._wake.set()

    async def _granted(self, priority: Priority, channel_id: int | None, kind: str) -> None:
        bucket = (channel_id, kind) if channel_id is not None else None
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, _Waiter(priority, next(self._seq), bucket, future))
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._grant_forever(), name="rest-budget")
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # granted, then cancelled: give back
                self._release()
            raise

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _grant_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self._wake.clear()
            wait = self._grant_ready(loop.time())
            if wait is None and not self._waiters:
                await self._wake.wait()
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait if wait is not None else 1.0)

    def _grant_ready(self, now: float) -> float | None:
        """Grant every waiter that may go now, best first; the seconds until the next may."""
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        blocked: list[_Waiter] = []
        next_time: float | None = None
        self._refill(now)
        while self._waiters and len(self._recent) + self._in_flight < self.per_second:
            if self._tokens < 1:  # paced: the next grant when a token has come in
                paced = now + (1 - self._tokens) / self.per_second
                next_time = paced if next_time is None else min(next_time, paced)
                break
            waiter = heapq.heappop(self._waiters)
            if waiter.granted.done():  # cancelled while waiting
                continue
            free_at = self._channel_free_at(waiter.bucket, now)
            if free_at > now:
                blocked.append(waiter)
                next_time = free_at if next_time is None else min(next_time, free_at)
                continue
            self._take(waiter.bucket, now)
            self._tokens -= 1
            waiter.granted.set_result(None)
        for waiter in blocked:
            heapq.heappush(self._waiters, waiter)
        full = len(self._recent) + self._in_flight >= self.per_second
        if self._waiters and full and self._recent:  # else: a call finishing wakes us
            global_free = self._recent[0] + 1.0
            next_time = global_free if next_time is None else min(next_time, global_free)
        return None if next_time is None else max(0.001, next_time - now)

    def _refill(self, now: float) -> None:
        """Tokens come in at `per_second`, up to `burst`."""
        if self._tokens_at is not None:
            elapsed = now - self._tokens_at
            self._tokens = min(float(self.burst), self._tokens + elapsed * self.per_second)
        self._tokens_at = now

    def _channel_free_at(self, bucket: tuple[int, str] | None, now: float) -> float:
        if bucket is None:
            return now
        used = self._channels.get(bucket)
        if used is None:
            return now
        while used and used[0] <= now - self.channel_period:
            used.popleft()
        if len(used) < self.channel_limit:
            return now
        return used[0] + self.channel_period

    def _take(self, bucket: tuple[int, str] | None, now: float) -> None:
        self.granted += 1
        self._in_flight += 1
        if bucket is not None:
            self._channels.setdefault(bucket, deque()).append(now)
            if len(self._channels) > 10_000:  # forget idle channels
                self._channels = {b: u for b, u in self._channels.items() if u}
