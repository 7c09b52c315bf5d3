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
from .hosted import HostedGame


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

    def arm(self, hosted: HostedGame, turn_started_at: float | None = None) -> None:
        """Schedule what happens next in this game if nobody acts: an AI move, or the turn
        timer (and its reminder halfway).

        A turn starts when the move before it is committed, so after a restart the
        deadlines are counted from the game's last commit, not from the restart.
        """
        self.clear(hosted.id)
        game = hosted.game
        if game is None or game.is_over or game.current_seat is None:
            return
        seat = hosted.seats[game.current_seat]
        now = self._clock.now()
        start = now if turn_started_at is None else turn_started_at
        if seat.ai_level is not None:
            self.add(Timer(start + hosted.options.ai_delay, hosted.id, TimerKind.AI, hosted.seq))
            return
        timeout = hosted.options.turn_timeout
        if start + timeout / 2 > now:
            self.add(Timer(start + timeout / 2, hosted.id, TimerKind.REMINDER, hosted.seq))
        self.add(Timer(start + timeout, hosted.id, TimerKind.TURN, hosted.seq))

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
