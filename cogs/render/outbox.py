"""The renderer's side of the render outbox (hosting/outbox.py): which moves each game has
shown, retrying what Discord refused for now, and nonces that make showing something twice
harmless.

The moves a flush showed (each update names its own, `GameUpdate.seqs`) are shown once the
renderer's flush of them is done *and* the game's table jobs ran out (`Tables` works in a
task of its own); only then is the service told (`render_shown`), which drops exactly those
moves' outbox rows. A call that failed in a way worth retrying (a 429 after discord.py's own
five tries, a 429 or 5xx from a proxy, a lost connection) holds the mark back and schedules a
retry with backoff: the service rebuilds the game's changes this process has not shown, up to
its *newest* state, so a game that moved on meanwhile shows where it is now. Refusals that no
retry can change (closed DMs, a deleted message, a missing permission) count as shown.

Every message the renderer creates carries a nonce named after what it shows (game 7's table
of round 2, its game-end post, seat 1's turn at move 12): Discord's `enforce_nonce` then
creates one message per nonce for a few minutes and hands back the first one to a repeat, so
a retry, or a replay after a crash whose mark was not written yet, never posts twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable, Collection
from typing import Any

import aiohttp
import discord

log = logging.getLogger(__name__)

RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 60.0)  # seconds; then every minute


def nonce(*what: object) -> str:
    """The nonce of the message that shows `what` (24 hex digits: Discord allows 25)."""
    text = ":".join(str(part) for part in what)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


# What a call to Discord raises when Discord refused it or the call got no answer at all (a
# lost connection, a time-out): a warning where it is caught, and retried where worth it.
CALL_FAILED: tuple[type[BaseException], ...] = (
    discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)


def worth_retrying(error: BaseException) -> bool:
    """All but Discord's refusals that no retry changes (a 4xx but 429: closed DMs, a deleted
    message, a missing permission): a lost connection, a time-out, a store error may pass."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return True


class ShownGames:
    """Which moves of which games are shown, which games failed, and their retries."""

    def __init__(
        self, service: Any, replay: Callable[[Any], None], tables_busy: Callable[[int], bool]
    ) -> None:
        self._service = service
        self._replay = replay  # hands a rebuilt update to the renderer, as a retry
        self._tables_busy = tables_busy
        self._flushed: dict[int, set[int]] = {}  # game -> moves flushed, its tables pending
        self._retried: set[int] = set()  # games whose flushed work was a retry
        self._failed: set[int] = set()  # games with a call to retry since their last settle
        self._attempts: dict[int, int] = {}  # games waiting for a retry: attempts so far
        self._timers: dict[int, asyncio.Task] = {}

    def busy(self) -> set[int]:
        """The games flushed but not marked yet, or waiting for a retry."""
        return {*self._flushed, *self._attempts, *self._timers}

    def failed(self, game_id: int, error: BaseException) -> None:
        """A call showing this game failed; a refusal no retry changes is let go."""
        if worth_retrying(error):
            self._failed.add(game_id)

    async def flushed(self, game_id: int, seqs: Collection[int], *, retry: bool) -> None:
        """The renderer's flush of these moves of the game is done (its tables maybe not)."""
        self._flushed.setdefault(game_id, set()).update(seqs)
        if retry:
            self._retried.add(game_id)
        if not self._tables_busy(game_id):
            await self._settle(game_id)

    async def tables_idle(self, game_id: int) -> None:
        if game_id in self._flushed:
            await self._settle(game_id)

    async def _settle(self, game_id: int) -> None:
        seqs = self._flushed.pop(game_id)
        retried = game_id in self._retried
        self._retried.discard(game_id)
        if game_id in self._failed:
            self._failed.discard(game_id)
            self._retry_later(game_id)
        elif game_id in self._attempts and not retried:
            return  # a retry is due: it shows every move this process has not shown
        else:
            self._attempts.pop(game_id, None)
            if seqs:
                await self._service.render_shown(game_id, seqs)

    def _retry_later(self, game_id: int) -> None:
        attempts = self._attempts.get(game_id, 0)
        self._attempts[game_id] = attempts + 1
        if game_id in self._timers:
            return
        delay = RETRY_DELAYS[min(attempts, len(RETRY_DELAYS) - 1)]
        log.warning("showing game %s failed; retry %d in %.0f s", game_id, attempts + 1, delay)
        task = asyncio.create_task(self._retry(game_id, delay), name=f"retry-{game_id}")
        self._timers[game_id] = task

    async def _retry(self, game_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        del self._timers[game_id]  # from here on, a new failure schedules the next retry
        try:
            update = await self._service.pending_render(game_id)
        except Exception:
            log.exception("could not rebuild game %s to show it again", game_id)
            self._retry_later(game_id)
            return
        if update is None:  # shown meanwhile (or nothing was due)
            self._attempts.pop(game_id, None)
            return
        self._replay(update)

    def close(self) -> None:
        """Shutdown: what is still due stays in the outbox, for the next start."""
        for task in self._timers.values():
            task.cancel()
        self._timers.clear()
