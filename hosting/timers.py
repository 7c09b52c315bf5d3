"""An in-memory queue of what happens next in each game if nobody acts.

Timers are not stored: they follow from a game's state and the time of its last committed
move, so after a restart the service re-arms them from the store with the same deadlines.
"""

from __future__ import annotations

import asyncio
import heapq
from dataclasses import dataclass, field
from enum import StrEnum

from .clock import Clock


class TimerKind(StrEnum):
    AI = "ai"  # an AI seat is on turn and moves after its delay
    REMINDER = "reminder"  # half of a human's turn time is gone
    TURN = "turn"  # a human's turn time is over: the bot quits the round for them


@dataclass(frozen=True, order=True)
class Timer:
    due_at: float
    game_id: int = field(compare=False)
    kind: TimerKind = field(compare=False)
    seq: int = field(compare=False)  # the move count it was set at; stale once a move lands


class TimerQueue:
    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._heap: list[Timer] = []
        self._live: dict[int, list[Timer]] = {}  # game id -> its pending timers
        self._wakeup = asyncio.Event()

    def add(self, timer: Timer) -> None:
        heapq.heappush(self._heap, timer)
        self._live.setdefault(timer.game_id, []).append(timer)
        self._wakeup.set()

    def clear(self, game_id: int) -> None:
        """Forget every pending timer of a game; the heap drops them lazily."""
        self._live.pop(game_id, None)

    def pending(self, game_id: int) -> list[Timer]:
        return list(self._live.get(game_id, ()))

    def _is_live(self, timer: Timer) -> bool:
        return any(t is timer for t in self._live.get(timer.game_id, ()))

    def pop_due(self) -> list[Timer]:
        now = self._clock.now()
        due = []
        while self._heap and self._heap[0].due_at <= now:
            timer = heapq.heappop(self._heap)
            if self._is_live(timer):
                live = self._live[timer.game_id]
                live[:] = [t for t in live if t is not timer]  # by identity: timers may tie
                due.append(timer)
        return due

    def next_due(self) -> float | None:
        while self._heap and not self._is_live(self._heap[0]):
            heapq.heappop(self._heap)
        return self._heap[0].due_at if self._heap else None

    async def wait_until_due(self) -> None:
        """Sleep until the earliest timer is due, waking early when a new one is added."""
        while True:
            self._wakeup.clear()
            due_at = self.next_due()
            delay = None if due_at is None else max(0.0, due_at - self._clock.now())
            if delay == 0.0:
                return
            try:
                await asyncio.wait_for(self._wakeup.wait(), timeout=delay)
            except TimeoutError:
                return
