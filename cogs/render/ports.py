"""What the outbound adapter needs from outside it, and nothing more: the Discord client's
messages by id and its raw REST calls, the languages it writes in, a player's DM choice,
whether a player is at a game's table outside Discord (the Activity), and which tournament
table a game is. The bot hands these in (bot.py); no part reads the bot."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

import discord
import discord.http

from hosting.tournament import PlayedAs


class Discord(Protocol):
    """The client's side the renderer uses: a channel (or DM) by id, and raw REST calls."""

    @property
    def http(self) -> discord.http.HTTPClient: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


class Channels(Discord, Protocol):
    """A channel with what Discord tells of it (its server, the bot's permissions there)."""

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...


class PublicLocales(Protocol):
    """A server's public language, and a player's DMs' (cogs.locales.Locales)."""

    def public_locale_of(self, guild_id: int | None) -> str: ...

    async def dm_locale(self, user_id: int, guild_id: int | None) -> str: ...


class TurnDms(Protocol):
    """Whether a player wants their turns by DM (`/lama notify`; hosting.Preferences)."""

    async def load_turn_dms(self, user_id: int) -> bool: ...


class Present(Protocol):
    """Whether a player had a window that is not Discord's (the Activity) open on a game, or
    used one, after a clock time (hosting.Presence)."""

    def seen_since(self, game_id: int, user_id: int, since: float) -> bool: ...


# The tournament table a game is played as, None for a casual game
# (hosting.tournament.TournamentService.table_of_game).
PlayedAsLookup = Callable[[int], Awaitable[PlayedAs | None]]
