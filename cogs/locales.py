"""Discord's side of hosting.Preferences, which owns every language choice: which language a
reader, a server's public messages and a player's DMs are in, from the choices stored and
what Discord tells of the client and the server."""

from __future__ import annotations

from collections.abc import Callable

import discord

from hosting import Preferences


def preferred_locale(guild: discord.Guild | None) -> str | None:
    """The server's own language in Discord (Community servers choose one)."""
    return str(guild.preferred_locale) if guild is not None else None


class Locales:
    """Every language the interface speaks in, by reader, server or DM. `guild`: the cached
    server of an id (None while it is not cached yet, right after start-up)."""

    def __init__(
        self, preferences: Preferences, guild: Callable[[int], discord.Guild | None]
    ) -> None:
        self._preferences = preferences
        self._guild = guild

    def locale_of(self, interaction: discord.Interaction) -> str:
        """The reader's language: their /lama language choice, else their Discord client's."""
        return self._preferences.reader_locale(interaction.user.id, str(interaction.locale))

    def public_locale_of(self, guild_id: int | None, guild: discord.Guild | None = None) -> str:
        """A server's public language: its setting, else its preferred locale."""
        if guild is None and guild_id is not None:
            guild = self._guild(guild_id)
        return self._preferences.public_locale(guild_id, preferred_locale(guild))

    async def public_locale_for(self, interaction: discord.Interaction) -> str:
        """A public answer's language, the server's setting read first: a server with no
        game since the start has no settings in memory yet. By id: the Guild object may not
        be cached yet right after start-up."""
        preferred = preferred_locale(interaction.guild)
        return await self._preferences.load_public_locale(interaction.guild_id, preferred)

    async def load_public_locale(self, guild_id: int) -> str:
        """A server's public language, its setting read first (the web pages ask by id)."""
        preferred = preferred_locale(self._guild(guild_id))
        return await self._preferences.load_public_locale(guild_id, preferred)

    async def dm_locale(self, user_id: int, guild_id: int | None) -> str:
        """A DM's language: the player's own choice (read first), else the one of their
        last interaction, else the server's public one."""
        await self._preferences.load_user_choice(user_id)
        return self._preferences.dm_locale(user_id, self.public_locale_of(guild_id))
