"""An in-memory queue of what happens next in each game if nobody acts.

The queue holds what a game's stored deadline (`HostedGame.deadline`, written with the commit
that set it: hosting/deadlines.py) implies: an AI's move, or a human's reminder and turn end.
After a restart the service re-arms it from the store with the same deadlines, to the
millisecond. A reminder that fell due while the bot was down is sent late if the turn still
has time left (it says how much), and dropped if the turn is over too: the time-out notice
follows at once and says what happened.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from dataclasses import dataclass, field

from .clock import Clock
from .deadlines import TimerKind
from .hosted import HostedGame


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Timer:
    due_at: float
    game_id: int = field(compare=False)
    kind: TimerKind = field(compare=False)
    seq: int = field(compare=False)  # the move count it was set at; stale once a move lands


class TimerQueue:
    """Timers by due time. The heap holds (due time, number) pairs, plain numbers the garbage
    collector does not scan; the Timer objects are only the live ones (`_live`, at most two
    per game). A cleared timer's pair stays until it reaches the heap's top, or until the
    cleared pairs outnumber the live ones and the heap is rebuilt (at most twice the pairs
    cleared since the last rebuild)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._heap: list[tuple[float, int]] = []  # (due_at, number): live or cleared
        self._timers: dict[int, Timer] = {}  # number -> the live timer
        self._live: dict[int, list[int]] = {}  # game id -> its live timers' numbers
        self._numbers = itertools.count()
        self._wakeup = asyncio.Event()
        self._sleeping_until: float | None = None  # the waiter's due time; None: not asleep

    def add(self, timer: Timer) -> None:
        number = next(self._numbers)
        heapq.heappush(self._heap, (timer.due_at, number))
        self._timers[number] = timer
        self._live.setdefault(timer.game_id, []).append(number)
        # Only a timer due before the one the waiter sleeps for wakes it. Every move arms its
        # game's next turn, mostly due long after another game's: waking for each cost a
        # look at the heap and a new timed wait (~20 µs of every move; issue 33). Unless the
        # clock has passed what it sleeps for (the clock jumped: a test's, or the wall
        # clock set forward): then its timed wait is stale, and it looks again.
        sleeping_until = self._sleeping_until
        if (sleeping_until is None or timer.due_at < sleeping_until
                or sleeping_until <= self._clock.now()):
            self._wakeup.set()

    def clear(self, game_id: int) -> None:
        """Forget every pending timer of a game at once (issue 14, issue 35: a human's turn
        timers fall due a minute on, long after a move replaced them)."""
        for number in self._live.pop(game_id, ()):
            del self._timers[number]
        if len(self._heap) > 2 * len(self._timers) + 16:
            self._heap = [(timer.due_at, n) for n, timer in self._timers.items()]
            heapq.heapify(self._heap)

    def arm(self, hosted: HostedGame) -> None:
        """Schedule what happens next in this game if nobody acts: its stored deadline (an
        AI move, or a human's reminder then turn end)."""
        self.clear(hosted.id)
        game = hosted.game
        if game is None or game.is_over or game.current_seat is None:
            return
        now = self._clock.now()
        deadline = hosted.deadline
        if deadline is None:  # nothing stored (a game built in memory): the turn starts now
            deadline = hosted.deadline = hosted.turn_deadline(now)
        if deadline is None:
            return
        end = deadline.turn_end(hosted.options)
        if deadline.kind is TimerKind.REMINDER and end.due_at > now:
            self.add(Timer(deadline.due_at, hosted.id, TimerKind.REMINDER, hosted.seq))
        self.add(Timer(end.due_at, hosted.id, end.kind, hosted.seq))

    def pending(self, game_id: int) -> list[Timer]:
        return [self._timers[n] for n in self._live.get(game_id, ())]

    def pop_due(self) -> list[Timer]:
        now = self._clock.now()
        due = []
        while self._heap and self._heap[0][0] <= now:
            _, number = heapq.heappop(self._heap)
            timer = self._timers.pop(number, None)
            if timer is None:
                continue  # cleared
            live = self._live[timer.game_id]
            live.remove(number)
            if not live:
                del self._live[timer.game_id]
            due.append(timer)
        return due

    def next_due(self) -> float | None:
        while self._heap and self._heap[0][1] not in self._timers:
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    async def wait_until_due(self) -> None:
        """Sleep until the earliest timer is due, waking early when a new one is added."""
        while True:
            self._wakeup.clear()
            due_at = self.next_due()
            delay = None if due_at is None else max(0.0, due_at - self._clock.now())
            if delay == 0.0:
                return
            self._sleeping_until = math.inf if due_at is None else due_at
            try:
                await asyncio.wait_for(self._wakeup.wait(), timeout=delay)
            except TimeoutError:
                return
            finally:
                self._sleeping_until = None
