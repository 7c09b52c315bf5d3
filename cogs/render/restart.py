"""A start after a stop or a crash, and a dead peer's games: what may still be live on
Discord is recalled, and what was committed and never shown (the render outbox, issue 12) is
shown again, as it was live.

Before the bot connects, the hand DMs stored for every restored game are recalled as live
(the seat's first new hand closes the one from before), and the outbox's changes are queued;
they flush once the bot is connected (`go`), every other restored game's table edited to its
current state then."""

from __future__ import annotations

import asyncio
import logging

from hosting import GameService, MessageKey
from hosting.views import GameUpdate, GameView, Status

from .hands import HandMessages
from .queue import FlushQueue
from .tables import Tables

log = logging.getLogger(__name__)


class Restarts:
    def __init__(
        self, service: GameService, queue: FlushQueue, hands: HandMessages, tables: Tables
    ) -> None:
        self._service = service
        self._queue = queue
        self._hands = hands
        self._tables = tables
        self._restored: list[GameView] = []  # tables to refresh once connected
        self._refreshing: asyncio.Task[None] | None = None

    async def restart(self, restored: list[GameView], *, alone: bool) -> None:
        """Before the bot connects: recall which hand messages may still be live, and queue
        the committed changes never shown (`alone`: every one, else those no live process
        holds) to show once it is connected (`go`)."""
        self._queue.hold()
        for view in restored:
            self._recall_hands(view)
        pending = await self._service.claim_renders(alone=alone)
        self.repair(pending)
        replayed = {update.view.game_id for update in pending}
        self._restored = [v for v in restored if v.game_id not in replayed]
        log.info("Restored %d unfinished games; %d to show again", len(restored), len(pending))

    def repair(self, updates: list[GameUpdate]) -> None:
        """Show changes rebuilt from the outbox (a restart's, or a dead process's): as they
        were live, with whatever hand messages of theirs may still be live recalled."""
        for update in updates:
            self._recall_hands(update.view)
            self._queue.add(update)

    def go(self) -> None:
        """Connected: show what `restart` queued (once; a reconnect changes nothing)."""
        self._queue.release()
        restored, self._restored = self._restored, []
        if restored:
            self._refreshing = asyncio.create_task(self._refresh_tables(restored),
                                                   name="refresh")

    def close(self) -> None:
        if self._refreshing is not None:
            self._refreshing.cancel()

    def _recall_hands(self, view: GameView) -> None:
        for seat in view.seats:
            ref = self._service.message_ref(view.game_id, MessageKey.hand(seat.index))
            if ref is not None and seat.user_id is not None:
                self._hands.recall(view.game_id, seat.index, seat.user_id, ref)

    async def _refresh_tables(self, views: list[GameView]) -> None:
        """After a restart: edit each running game's table to its current state."""
        for view in views:
            if view.status is Status.RUNNING:
                self._tables.edit(view)
