"""What the inbound cogs use of the bot, and nothing more: `LamaHost`. bot.LamaBot is one;
no module below bot.py imports it (tests/test_structure.py checks, type checking included),
so the cogs name the bot by this protocol."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, cast

import discord
from discord.abc import Snowflake
from discord.ext import commands

from hosting import GameService, Preferences
from hosting.seasons import SeasonKeeper
from hosting.site import SiteService
from hosting.stats import StatsService
from hosting.tournament import TournamentService
from hosting.views import GameView
from lama.observation import Observation
from web import PublicLinks

from .locales import Locales
from .render.hand_records import HandAnswer
from .render.scheduler import RestBudget


class LobbyAnswers(Protocol):
    """An answer that shows a game's lobby tells the renderer (render.LobbyMessages)."""

    def answering(self, game_id: int) -> AbstractContextManager[None]: ...

    def shown(self, game_id: int, message_id: int | None, content: dict[str, Any]) -> None: ...


class HandPresses(Protocol):
    """Whether a pressed hand message is out of date (render.HandMessages)."""

    def replaced(self, game_id: int, user_id: int, pressed: discord.Message) -> bool: ...


class Answers(Protocol):
    """What the cogs tell the renderer (render.Renderer) of what their answers showed, and
    the REST budget their own posts share with it."""

    @property
    def lobbies(self) -> LobbyAnswers: ...
    @property
    def hands(self) -> HandPresses: ...
    @property
    def budget(self) -> RestBudget: ...

    def hand_shown(
        self, view: GameView, answer: HandAnswer, obs: Observation | None = None
    ) -> None: ...

    async def refresh_table(self, view: GameView) -> None: ...


class LamaHost(Protocol):
    """The services the cogs ask, the languages they answer in, the renderer their answers
    tell what they showed, and the few calls of discord.py's bot they make."""

    @property
    def service(self) -> GameService: ...
    @property
    def preferences(self) -> Preferences: ...
    @property
    def tournaments(self) -> TournamentService: ...
    @property
    def stats_service(self) -> StatsService: ...
    @property
    def site_service(self) -> SiteService: ...
    @property
    def web_links(self) -> PublicLinks: ...
    @property
    def season_keeper(self) -> SeasonKeeper: ...
    @property
    def locales(self) -> Locales: ...
    @property
    def renderer(self) -> Answers: ...
    @property
    def database_identity(self) -> str: ...

    async def add_cog(
        self, cog: commands.Cog, /, *, override: bool = False,
        guild: Snowflake | None = ..., guilds: Sequence[Snowflake] = ...,
    ) -> None: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...


def host_of(interaction: discord.Interaction[Any]) -> LamaHost:
    """The bot every interaction of ours comes through."""
    return cast(LamaHost, interaction.client)
