"""The sweep for due timers nobody fired (several processes on one database, issue 16).

Every process fires the timers of the games it holds, each claimed in the transaction that
applies it (hosting/turns.py). A process that dies leaves its games' timers due in their
rows; every other process sweeps for rows overdue by `ADOPT_GRACE_S` and takes those games
up (`GameLoader.adopt_overdue`), so a dead process's AI turn goes on after its delay plus
the grace plus at most a sweep's wait, not after a turn time. A sweep runs when the soonest
stored timer of any game would be overdue, and at least every `SWEEP_S`, for a timer set by
another process after the sweeper last looked.

A timer can stay overdue rightly: the live process holding its game fires it late (a busy
loop, a retry after a failure) or holds its row. While it does, the sweep looks again after
`MIN_GAP_S`, then twice as long after each sweep that took nothing up, up to `SWEEP_S`: a
timer falling overdue behind it is seen within `SWEEP_S`, like one set elsewhere.
"""

from __future__ import annotations

import asyncio
import logging

from store import Store

from .clock import Clock
from .loader import ADOPT_GRACE_S, GameLoader

log = logging.getLogger(__name__)

SWEEP_S = 1.0  # the longest wait between sweeps: how late a timer set elsewhere is seen
MIN_GAP_S = 0.25  # the shortest: a row nobody can fire (yet) must not spin the sweeper


class TimerSweeper:
    def __init__(self, store: Store, clock: Clock, loader: GameLoader) -> None:
        self._store = store
        self._clock = clock
        self._loader = loader
        self._backoff: float | None = None  # the next look at a timer sweeps left overdue

    async def run(self, every: float = SWEEP_S) -> None:
        """Sweep for as long as the service runs."""
        while True:
            await asyncio.sleep(await self.next_in(every))
            await self.sweep()

    async def sweep(self) -> list[int]:
        """Take up every overdue game (`GameLoader.adopt_overdue`); returns their ids. A
        sweep that takes none up doubles the wait before the next look at a timer still
        overdue: its process is alive and fires it late, or holds its row for a moment."""
        try:
            adopted = await self._loader.adopt_overdue(self._clock.now())
        except Exception:  # a database hiccup must not end the sweeping
            log.exception("could not look for overdue games")
            adopted = []
        if adopted:
            self._backoff = None
        else:
            self._backoff = min(SWEEP_S, 2 * self._backoff) if self._backoff else MIN_GAP_S
        return adopted

    async def next_in(self, every: float = SWEEP_S) -> float:
        """Seconds until the next sweep: when the soonest stored timer would be overdue,
        between `MIN_GAP_S` and `every`; for a timer overdue already, the back-off."""
        try:
            due_ms = await self._store.timers.next_due_ms()
        except Exception:
            log.exception("could not read the next due timer")
            return every
        overdue_in = None if due_ms is None else due_ms / 1000 + ADOPT_GRACE_S - self._clock.now()
        if overdue_in is None or overdue_in > 0:
            self._backoff = None  # nothing overdue waits: the next one is looked at in time
            return every if overdue_in is None else min(every, max(MIN_GAP_S, overdue_in))
        return min(every, self._backoff or MIN_GAP_S)
