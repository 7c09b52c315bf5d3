"""Where an interface put a game's messages, remembered in memory and written behind moves.

A message is named by a typed `MessageKey`: the game's lobby, its table, its game-end post
(whose Rematch button comes back when its rematch lobby is cancelled), or one seat's hand.
Ids are batched (one transaction for all games every `MESSAGE_WRITE_DELAY` s) while
`run_writer` runs, and flushed on close, together with the moves each game has shown (the
render outbox, outbox.py). A hand's id is written at once (with whatever waits): after a
restart, its live buttons are closed when the seat's next hand is sent; so is a lobby's, which
a press on the Rematch of the game it replays is pointed to. A crash loses at
most one batch: the changes not marked shown are shown again after the restart, and Discord
hands back the messages already sent (each create carries a nonce naming what it shows), so
their ids are learnt again. Without the writer (tests, tools) everything is written at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection

from store import MessageRef, Store

from .hosted import HostedGame
from .views import TABLE, MessageKey, MessageKind

log = logging.getLogger(__name__)

MESSAGE_WRITE_DELAY = 0.5  # seconds message ids wait to be stored together


class MessageRefs:
    """The message ids of every game, and their writer to the store."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._unsaved: dict[tuple[int, MessageKey], MessageRef] = {}
        self._shown: dict[int, set[int]] = {}  # game -> its moves shown
        self._marking: set[int] = set()  # games whose marks are being written
        self._waiting = asyncio.Event()
        self._writer_running = False

    async def remember(
        self, hosted: HostedGame, key: MessageKey, channel_id: int, message_id: int,
        round_number: int | None = None,
    ) -> None:
        """Note where a message went, showing `round_number` (default: the game's round now);
        stored behind moves, not in a transaction of its own."""
        if round_number is None and hosted.game is not None:
            round_number = hosted.game.round_number
        hosted.messages[key] = (channel_id, message_id)
        if key == TABLE:
            hosted.table_round = round_number
        self._unsaved[(hosted.id, key)] = MessageRef(
            hosted.id, key.kind.value, channel_id, message_id, seat=key.seat,
            round_number=round_number,
        )
        if key.kind in (MessageKind.HAND, MessageKind.LOBBY):
            # at once: a crash must not forget a live hand, nor the lobby a finished game's
            # Rematch points to (one write per lobby)
            await self.flush()
        else:
            await self._written_soon()

    async def shown(self, game_id: int, seqs: Collection[int]) -> None:
        """The interface has shown these moves of the game: their outbox rows go (behind
        moves, like the ids)."""
        if seqs:
            self._shown.setdefault(game_id, set()).update(seqs)
            await self._written_soon()

    def marking(self) -> set[int]:
        """The games with moves shown whose marks are not written yet."""
        return {*self._shown, *self._marking}

    async def _written_soon(self) -> None:
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
        shown, self._shown = self._shown, {}
        if not refs and not shown:
            return
        marks = [(game_id, seq) for game_id, seqs in shown.items() for seq in seqs]
        self._marking = set(shown)
        try:
            await self._store.games.save_message_refs(list(refs.values()), marks)
        except BaseException:
            self._unsaved = {**refs, **self._unsaved}  # newer ids win; next flush
            for game_id, seqs in shown.items():
                self._shown.setdefault(game_id, set()).update(seqs)
            raise
        finally:
            self._marking = set()

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
