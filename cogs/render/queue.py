"""The renderer's queue: per game, the updates since its last flush collected into one `Work`
and flushed shortly after (`coalesce_delay`) in a task of the game's own, one flush of a game
at a time; held after a restart until the bot is connected (`hold`, `release`). An update
that only tells a reminder is flushed at once: it is due to the millisecond (its lateness is
benchmarks/reminders.py's), and no move comes with it to coalesce."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import aiohttp

from hosting.views import GameUpdate, NoticeKind, Status

from .outbox import ShownGames
from .work import Answered, Work

log = logging.getLogger(__name__)

# A call that never got Discord's answer: the connection was lost (a keep-alive connection
# closed as it was reused, a reset) or timed out. The outbox retries it like a 5xx: worth a
# warning, not a traceback (a fault of the bot's own keeps its ERROR and traceback).
LOST_CALL = (aiohttp.ClientConnectionError, ConnectionError, TimeoutError)


class FlushQueue:
    def __init__(
        self, flush: Callable[[Work], Awaitable[None]], shown: ShownGames, answered: Answered,
        *, coalesce_delay: float,
    ) -> None:
        self._flush = flush  # shows one game's work on Discord
        self._shown = shown
        self._answered = answered  # the hands hear of an interaction that shows one
        self.coalesce_delay = coalesce_delay
        self._ready = asyncio.Event()
        self._ready.set()
        self._work: dict[int, Work] = {}
        self.flushing: dict[int, asyncio.Task[None]] = {}

    def add(self, update: GameUpdate, *, retry: bool = False) -> None:
        """Queue an update (`retry`: rebuilt by the outbox after a failed call)."""
        view = update.view
        work = self._work.get(view.game_id)
        if work is None:
            work = self._work[view.game_id] = Work(view)
        work.retry = work.retry or retry
        work.collect(update, self._answered)
        if view.game_id not in self.flushing:
            at_once = bool(update.notices) and not update.events and all(
                notice.kind is NoticeKind.REMINDER for notice in update.notices)
            self.flushing[view.game_id] = asyncio.create_task(
                self._flush_later(view.game_id, at_once=at_once))

    def hold(self) -> None:
        """Flushes wait (a restart: until the bot is connected)."""
        self._ready.clear()

    def release(self) -> None:
        self._ready.set()

    def queued(self) -> set[int]:
        """The games with work queued or flushing."""
        return {*self._work, *self.flushing}

    async def _flush_later(self, game_id: int, *, at_once: bool = False) -> None:
        try:
            await self._ready.wait()
            if self.coalesce_delay and not at_once:
                await asyncio.sleep(self.coalesce_delay)
            while (work := self._work.pop(game_id, None)) is not None:
                try:
                    await self._flush(work)
                except LOST_CALL as error:
                    log.warning("rendering game %s: a call to Discord was lost (%r); retried",
                                game_id, error)
                    self._shown.failed(game_id, error)
                except Exception as error:
                    log.exception("rendering game %s failed", game_id)
                    self._shown.failed(game_id, error)
                if work.view.status is not Status.LOBBY:
                    await self._shown.flushed(game_id, work.seqs, retry=work.retry)
        finally:
            self.flushing.pop(game_id, None)

    async def game_shown(self, game_id: int) -> None:
        """Wait until what is queued for the game is on Discord (its flush ended). Not while
        flushes are held for a restart (they wait for the connection, which waits for this)."""
        while self._ready.is_set() and (task := self.flushing.get(game_id)) is not None:
            await asyncio.wait({task})
