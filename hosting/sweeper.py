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

On PostgreSQL every commit that sets a timer notifies the others (LISTEN/NOTIFY, migration
0026): a sweeper told of one plans its next look anew at once, for when that timer would be
overdue, instead of finding it at its next periodic look; that look then comes only every
`LISTENING_SWEEP_S`, the fallback for a notification lost with its connection (listened to
again at the next look). SQLite has nobody to tell: it keeps its period.
"""

from __future__ import annotations

import asyncio
import logging
import math

from store import Listening, Store

from .clock import Clock
from .loader import ADOPT_GRACE_S, GameLoader

log = logging.getLogger(__name__)

SWEEP_S = 1.0  # the longest wait between sweeps: how late a timer set elsewhere is seen
LISTENING_SWEEP_S = 10.0  # the same, where every committed timer is told (PostgreSQL)
MIN_GAP_S = 0.25  # the shortest: a row nobody can fire (yet) must not spin the sweeper


class TimerSweeper:
    def __init__(self, store: Store, clock: Clock, loader: GameLoader) -> None:
        self._store = store
        self._clock = clock
        self._loader = loader
        self._backoff: float | None = None  # the next look at a timer sweeps left overdue
        self._told = asyncio.Event()  # a process committed a timer: plan the next look anew
        self._watch: Listening | None = None
        self._look_at = math.inf  # when (on the clock) the next look is planned

    @property
    def listening(self) -> bool:
        """Told of every timer any process commits (PostgreSQL), as it commits it."""
        return self._watch is not None and self._watch.alive

    async def listen(self) -> None:
        """Hear of timers as they are committed, where the database tells (PostgreSQL's
        LISTEN/NOTIFY); a lost connection is listened again at the next look."""
        if not self.listening:
            await self.close()
            self._watch = await self._store.timers.watch(self._timer_committed)

    async def close(self) -> None:
        watch, self._watch = self._watch, None
        if watch is not None:
            await watch.close()

    def _timer_committed(self, due_ms: int) -> None:
        """Told of a timer: plan anew only if it falls overdue before the planned look (a
        move's commit sets a later timer than the soonest, almost always: no read then)."""
        if due_ms / 1000 + ADOPT_GRACE_S < self._look_at:
            self._told.set()

    async def run(self, every: float = SWEEP_S) -> None:
        """Sweep for as long as the service runs: where timers are told, the periodic look is
        only the fallback for a lost notification (`LISTENING_SWEEP_S`)."""
        try:
            while True:
                await self.listen()
                await self.wait(LISTENING_SWEEP_S if self.listening else every)
                await self.sweep()
        finally:
            await self.close()

    async def wait(self, every: float = SWEEP_S) -> None:
        """Until the next sweep is due: the soonest stored timer overdue, or `every` at the
        latest. A timer committed meanwhile (told, where the database tells) plans it anew at
        once: it may fall overdue sooner."""
        while True:
            self._told.clear()
            self._look_at = math.inf  # told while planning: plan again
            delay = await self.next_in(every)
            self._look_at = self._clock.now() + delay
            if self._told.is_set():
                continue
            try:
                await asyncio.wait_for(self._told.wait(), delay)
            except TimeoutError:
                return

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
