"""Where an interface put a game's messages, remembered in memory and written behind moves.

A message is named by a typed `MessageKey`: the game's lobby, its table, or one seat's hand.
Ids are batched (one transaction for all games every `MESSAGE_WRITE_DELAY` s) while
`run_writer` runs, and flushed on close; a crash loses at most that much, which only means an
old message is not edited after the restart. Without the writer (tests, tools) each id is
written at once.
"""

from __future__ import annotations

import asyncio
import logging

from store import MessageRef, Store

from .hosted import HostedGame
from .views import MessageKey

log = logging.getLogger(__name__)

MESSAGE_WRITE_DELAY = 0.5  # seconds message ids wait to be stored together


class MessageRefs:
    """The message ids of every game, and their writer to the store."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._unsaved: dict[tuple[int, MessageKey], MessageRef] = {}
        self._waiting = asyncio.Event()
        self._writer_running = False

    async def remember(
        self, hosted: HostedGame, key: MessageKey, channel_id: int, message_id: int
    ) -> None:
        """Note where a message went; stored behind moves, not in a transaction of its own."""
        hosted.messages[key] = (channel_id, message_id)
        self._unsaved[(hosted.id, key)] = MessageRef(
            hosted.id,
            key.kind.value,
            channel_id,
            message_id,
            seat=key.seat,
            round_number=hosted.game.round_number if hosted.game else None,
        )
        if self._writer_running:
            self._waiting.set()
        else:
            await self.flush()

    async def use_thread(self, hosted: HostedGame, thread_id: int) -> None:
        """Where the game shows itself: stored at once, as routing after a restart needs it."""
        await self._store.games.set_thread(hosted.id, thread_id)
        hosted.thread_id = thread_id

    async def flush(self) -> None:
        refs, self._unsaved = self._unsaved, {}
        if not refs:
            return
        try:
            await self._store.games.save_message_refs(list(refs.values()))
        except BaseException:
            self._unsaved = {**refs, **self._unsaved}  # newer ids win; next flush
            raise

    async def run_writer(self) -> None:
        """Write remembered message ids in batches, for as long as the service runs."""
        self._writer_running = True
        try:
            while True:
                await self._waiting.wait()
                await asyncio.sleep(MESSAGE_WRITE_DELAY)
                self._waiting.clear()
                try:
                    await self.flush()
                except Exception:
                    log.exception("could not store message ids")
        finally:
            self._writer_running = False
