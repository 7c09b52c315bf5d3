"""/lama stats, history, replay, settings and forget-me, as a mixin of the /lama GroupCog.

discord.py's CogMeta collects app commands along the whole MRO, so `class Lama(StatsCommands,
commands.GroupCog, group_name="lama")` makes these methods /lama subcommands while this file
stays separate from the game commands. The mixin expects `self.bot` (set by Lama.__init__).
Embeds are built by cogs/stats_embeds.py; every number comes from hosting.stats.StatsService.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

import i18n
from hosting import options

from . import stats_embeds as render
from .button_views import ButtonsView
from .buttons import LamaButton
from .choices import VARIANT_CHOICES, AiDelay, Target, TurnTimeout
from .custom_ids import CustomId, number, one_of
from .language import LANGUAGE_CHOICES
from .text import t
from .timely import answers_publicly
from .weblinks import PUBLIC, WEB_PAGES_CHOICES, public_paths, settings_line, with_web_link

if TYPE_CHECKING:
    from .host import LamaHost

SEASON_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(english, key=f"season.cadence.{value}"),
                        value=value)
    for english, value in zip(("Off", "Monthly", "Quarterly"), options.SEASON_CADENCES,
                              strict=True)
]

FORGET_ID = CustomId("fm", number("user"), one_of("choice", "yes", "no"))
REPLAY_ID = CustomId("rp", one_of("dir", "p", "n"), number("game"), number("page"))


class HandlesForget(Protocol):
    async def forget_button(self, interaction: discord.Interaction, choice: str) -> None: ...


class HandlesReplay(Protocol):
    async def replay_button(
        self, interaction: discord.Interaction, game_id: int, page: int
    ) -> None: ...


class ForgetButton(LamaButton[HandlesForget], ids=FORGET_ID):
    """Yes/No under /lama forget-me; only the user it names may press it."""

    dm_presses = True  # forget-me answers wherever it is asked

    def __init__(self, user_id: int, choice: str, **button: Any) -> None:
        super().__init__(self.ids.make(user_id, choice), **button)
        self.owner_id, self.choice = user_id, choice

    async def home_guild(self, bot: LamaHost) -> int | None:
        return None  # the presser's own statistics, in every server: the owner check guards it

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesForget, locale: str
    ) -> None:
        await handler.forget_button(interaction, self.choice)


class ReplayButton(LamaButton[HandlesReplay], ids=REPLAY_ID):
    """◀ or ▶ under a replay; `page` is the page it shows."""

    def __init__(self, direction: str, game_id: int, page: int, **button: Any) -> None:
        super().__init__(self.ids.make(direction, game_id, page), **button)
        self.game_id, self.page = game_id, page

    async def home_guild(self, bot: LamaHost) -> int | None:
        return await bot.service.guild_of_game(self.game_id)

    async def pressed(
        self, interaction: discord.Interaction, handler: HandlesReplay, locale: str
    ) -> None:
        await handler.replay_button(interaction, self.game_id, self.page)


STATS_ITEMS = (ForgetButton, ReplayButton)  # registered by the Lama cog (their handler)


def replay_view(game_id: int, page: int, pages: int) -> discord.ui.View | None:
    if pages <= 1:
        return None
    ui = ButtonsView()
    ui.add_item(ReplayButton("p", game_id, max(page - 1, 0), emoji="◀️",
                             style=discord.ButtonStyle.secondary, disabled=page == 0))
    ui.add_item(ReplayButton("n", game_id, min(page + 1, pages - 1), emoji="▶️",
                             style=discord.ButtonStyle.secondary, disabled=page >= pages - 1))
    return ui


def forget_view(user_id: int, locale: str) -> discord.ui.View:
    ui = ButtonsView()
    ui.add_item(ForgetButton(user_id, "yes", label=t("forget.button.confirm", locale),
                             style=discord.ButtonStyle.danger, emoji="🗑️"))
    ui.add_item(ForgetButton(user_id, "no", label=t("forget.button.cancel", locale),
                             style=discord.ButtonStyle.secondary))
    return ui


class StatsCommands(commands.Cog):
    """Mixin for the /lama GroupCog: statistics, history, replays, settings, privacy."""

    bot: LamaHost

    def _stats_locale(self, interaction: discord.Interaction) -> str:
        return self.bot.locales.locale_of(interaction)

    async def _server_or_refuse(self, interaction: discord.Interaction) -> int | None:
        """The server asked about; None once a DM was refused (guild_only() is ignored on
        subcommands: a DM must be answered here, not reach the store with no server id)."""
        if interaction.guild_id is not None:
            return interaction.guild_id
        await interaction.response.send_message(
            t("error.guild_only", self._stats_locale(interaction)), ephemeral=True
        )
        return None

    # ------------------------------------------------------------------ stats

    @answers_publicly
    @app_commands.command(name="stats", description="LAMA statistics of a player on this server")
    @app_commands.describe(user="Whose statistics (default: yours)")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        if (guild_id := await self._server_or_refuse(interaction)) is None:
            return
        locale = await self.bot.locales.public_locale_for(interaction)  # a public message
        player = user or interaction.user
        report = await self.bot.stats_service.player(
            guild_id, player.id, asked_by=interaction.user.id
        )
        embed = render.stats_embed(report, player.display_name, locale)
        paths = await public_paths(self.bot, guild_id)
        url = paths.player(player.id) if paths and report.stats.games else None
        ui = with_web_link(None, url, locale)
        await interaction.response.send_message(embed=embed, view=ui or MISSING)

    @answers_publicly
    @app_commands.command(name="history", description="This server's most recent LAMA games")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction) -> None:
        if (guild_id := await self._server_or_refuse(interaction)) is None:
            return
        locale = await self.bot.locales.public_locale_for(interaction)  # a public message
        games = await self.bot.stats_service.history(guild_id)
        paths = await public_paths(self.bot, guild_id)
        url = paths.games() if paths and games else None
        embed = render.history_embed(games, locale)
        ui = with_web_link(None, url, locale)
        await interaction.response.send_message(embed=embed, view=ui or MISSING)

    # ----------------------------------------------------------------- replay

    @app_commands.command(name="replay", description="A finished game, round by round, privately")
    @app_commands.describe(game_id="The game's number (see /lama history)")
    @app_commands.guild_only()
    async def replay(
        self, interaction: discord.Interaction, game_id: app_commands.Range[int, 1]
    ) -> None:
        if await self._server_or_refuse(interaction) is None:
            return
        await self._send_replay(interaction, game_id, 0, edit=False)

    async def replay_button(
        self, interaction: discord.Interaction, game_id: int, page: int
    ) -> None:
        await self._send_replay(interaction, game_id, page, edit=True)

    async def _send_replay(
        self, interaction: discord.Interaction, game_id: int, page: int, *, edit: bool
    ) -> None:
        locale = self._stats_locale(interaction)
        guild_id = interaction.guild_id
        replay = await self.bot.stats_service.replay(guild_id, game_id) if guild_id else None
        if replay is None:
            text = t("replay.not_found", locale, game_id=game_id)
            await interaction.response.send_message(text, ephemeral=True)
            return
        pages = render.replay_pages(replay, locale)
        page = min(max(page, 0), len(pages) - 1)
        paths = await public_paths(self.bot, interaction.guild_id)
        url = paths.replay(game_id) if paths else None
        ui = with_web_link(replay_view(game_id, page, len(pages)), url, locale)
        if edit:
            await interaction.response.edit_message(embed=pages[page], view=ui)
        else:
            await interaction.response.send_message(
                embed=pages[page], view=ui or MISSING, ephemeral=True
            )

    # --------------------------------------------------------------- settings

    @app_commands.command(name="settings", description="LAMA defaults for this server")
    @app_commands.describe(
        variant="Default variant of new games",
        target=f"Default target score, {options.TARGET.low}–{options.TARGET.high}",
        turn_timeout=(
            f"Default seconds per turn, {options.TURN_TIMEOUT.low}–{options.TURN_TIMEOUT.high}"
        ),
        ai_delay=f"Seconds an AI waits before moving, {options.AI_DELAY.low:g}–"
        f"{options.AI_DELAY.high:g}",
        channel="Allow games only in this channel",
        clear_channel="Allow games in every channel again",
        language="Language of public game messages in this server",
        threads="Show each game in its own thread (the lobby stays in the channel)",
        web_pages="Whether this server's web pages are public or need the secret link",
        new_web_link="Replace the secret link of the web pages (the old one stops working)",
        seasons="Rating seasons: off, monthly or quarterly",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, variant=VARIANT_CHOICES,
                          web_pages=WEB_PAGES_CHOICES, seasons=SEASON_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        variant: str | None = None,
        target: Target | None = None,
        turn_timeout: TurnTimeout | None = None,
        ai_delay: AiDelay | None = None,
        channel: discord.TextChannel | None = None,
        clear_channel: bool = False,
        language: str | None = None,
        threads: bool | None = None,
        web_pages: str | None = None,
        new_web_link: bool = False,
        seasons: str | None = None,
    ) -> None:
        if (guild_id := await self._server_or_refuse(interaction)) is None:
            return
        locale = self._stats_locale(interaction)
        perms = interaction.permissions
        # default_permissions only hides the command; a server can grant it to anyone, so the
        # permission that matters is checked here too.
        if not (perms.manage_guild or perms.administrator):
            await interaction.response.send_message(t("settings.not_allowed", locale),
                                                    ephemeral=True)
            return
        saved = await self.bot.preferences.update_settings(  # refusals: cogs/errors.py
            guild_id,
            variant=variant,
            target=target,
            turn_timeout_s=turn_timeout,
            ai_delay_s=ai_delay,
            games_channel_id=channel.id if channel else None,
            clear_channel=clear_channel,
            locale=language,
            game_threads=threads,
            seasons=seasons,
        )
        access = await self.bot.site_service.update_access(
            guild_id,
            public=None if web_pages is None else web_pages == PUBLIC,
            new_link=new_web_link,
        )
        given = (variant, target, turn_timeout, ai_delay, channel, language, threads, web_pages,
                 seasons)
        changed = any(v is not None for v in given)
        changed = changed or clear_channel or new_web_link
        preferred = i18n.resolve_locale(str(interaction.guild_locale or "en"))
        embed = render.settings_embed(saved, locale, saved_now=changed, preferred=preferred)
        embed.add_field(name=t("settings.web", locale),
                        value=settings_line(self.bot.web_links, access, locale), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ---------------------------------------------------------------- privacy

    @app_commands.command(name="forget-me", description="Erase your LAMA statistics everywhere")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        locale = self._stats_locale(interaction)
        await interaction.response.send_message(
            t("forget.confirm", locale), view=forget_view(interaction.user.id, locale),
            ephemeral=True,
        )

    async def forget_button(self, interaction: discord.Interaction, choice: str) -> None:
        locale = self._stats_locale(interaction)
        if choice != "yes":
            await interaction.response.edit_message(content=t("forget.cancelled", locale),
                                                    view=None)
            return
        count = await self.bot.stats_service.forget(interaction.user.id)  # language choice too
        await interaction.response.edit_message(
            content=t("forget.done", locale, count=count), view=None
        )
