"""Games in their own thread, for servers that want it (`/lama settings threads:`).

When a game starts, a public thread is started from its lobby message (which stays in the
channel and points to it); the table, the summaries and the notices go there, so the channel
stays readable and bystanders follow the game by opening the thread. When the game ends or is
cancelled, after its last message, the thread is archived. Where a thread cannot be made (no
Create Public Threads permission, a lobby opened inside a thread), the game shows itself in
its channel as usual. A crash between Discord making the thread and the bot storing it leaves
the thread there: the retry finds it by the lobby's id (`_from_lobby`) and plays in it.
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
THREAD_EXISTS = 160004  # "A thread has already been created for this message"


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
        name = name[:NAME_LIMIT]
        lobby = self._service.message_ref(view.game_id, LOBBY)
        try:
            if lobby is not None and lobby[0] == view.channel_id:
                thread_id = await self._from_lobby(view.channel_id, lobby[1], name)
            else:
                data = await self._http.start_thread_without_message(
                    view.channel_id, name=name, auto_archive_duration=ARCHIVE_AFTER_MINUTES,
                    type=discord.ChannelType.public_thread.value,
                )
                thread_id = int(data["id"])
        except discord.HTTPException as error:
            log.warning("game %s stays in its channel: no thread (%s)", view.game_id, error)
            return view
        return await self._service.show_in_thread(view.game_id, thread_id)

    async def _from_lobby(self, channel_id: int, lobby_id: int, name: str) -> int:
        """The thread started from the lobby message. One may be there already: Discord made
        it, and the bot died before it stored it (or never heard: a lost answer). The retry
        then gets 160004, and the thread is the one with the lobby's own id (a thread started
        from a message shares its id), if it is a thread of this channel."""
        try:
            data = await self._http.start_thread_with_message(
                channel_id, lobby_id, name=name, auto_archive_duration=ARCHIVE_AFTER_MINUTES)
        except discord.HTTPException as error:
            if error.code != THREAD_EXISTS:
                raise
            found = await self._http.get_channel(lobby_id)
            if found.get("parent_id") != str(channel_id):  # snowflakes are strings
                raise
            log.info("the thread of lobby %s was made before: using it", lobby_id)
            return int(found["id"])
        return int(data["id"])

    async def close(self, view: GameView) -> None:
        """Archive a finished or cancelled game's thread (after its last message)."""
        if view.thread_id is None or view.status not in (Status.FINISHED, Status.CANCELLED):
            return
        try:
            await self._http.edit_channel(view.thread_id, archived=True)
        except discord.HTTPException as error:
            log.warning("could not archive the thread of game %s: %s", view.game_id, error)
