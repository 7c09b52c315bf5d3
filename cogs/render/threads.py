"""Games in their own thread, for servers that want it (`/lama settings threads:`).

When a game starts, a public thread is started from its lobby message (which stays in the
channel and points to it); the table, the summaries and the notices go there, so the channel
stays readable and bystanders follow the game by opening the thread. When the game ends or is
cancelled, after its last message, the thread is archived. Where a thread cannot be made (no
Create Public Threads permission, a lobby opened inside a thread), the game shows itself in
its channel as usual.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

import discord

from hosting import LOBBY
from hosting.views import GameView, Status

from ..text import t, variant_name

if TYPE_CHECKING:
    from hosting import GameService

log = logging.getLogger(__name__)

ARCHIVE_AFTER_MINUTES: Final = 1440  # Discord archives a quiet thread after a day; we, at the end
NAME_LIMIT = 100


class GameThreads:
    def __init__(self, http: discord.http.HTTPClient, service: GameService) -> None:
        self._http = http
        self._service = service

    async def open(self, view: GameView, locale: str) -> GameView:
        """Start the game's thread if its server shows games in threads; the view after."""
        if view.thread_id is not None or view.status is not Status.RUNNING:
            return view
        settings = await self._service.guild_settings(view.guild_id)
        if not settings.game_threads:
            return view
        name = t("thread.name", locale, game_id=view.game_id, variant=variant_name(view, locale))
        lobby = self._service.message_ref(view.game_id, LOBBY)
        try:
            if lobby is not None and lobby[0] == view.channel_id:
                data = await self._http.start_thread_with_message(
                    view.channel_id, lobby[1], name=name[:NAME_LIMIT],
                    auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                )
            else:
                data = await self._http.start_thread_without_message(
                    view.channel_id, name=name[:NAME_LIMIT],
                    auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                    type=discord.ChannelType.public_thread.value,
                )
        except discord.HTTPException as error:
            log.warning("game %s stays in its channel: no thread (%s)", view.game_id, error)
            return view
        return await self._service.show_in_thread(view.game_id, int(data["id"]))

    async def close(self, view: GameView) -> None:
        """Archive a finished or cancelled game's thread (after its last message)."""
        if view.thread_id is None or view.status not in (Status.FINISHED, Status.CANCELLED):
            return
        try:
            await self._http.edit_channel(view.thread_id, archived=True)
        except discord.HTTPException as error:
            log.warning("could not archive the thread of game %s: %s", view.game_id, error)
