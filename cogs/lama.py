"""/lama …: open a lobby, join, leave, start, cancel, kick, see your hand, the table, the rules.

Each command is a thin adapter: check who and where, one service call, show the result.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from hosting import LOBBY, GameOptions, HostingError, Problem
from hosting.views import GameUpdate, GameView, Status

from . import embeds
from .buttons import Presses, manages_server, press_handler
from .choices import AI_LEVEL_CHOICES, VARIANT_CHOICES, AiSeats, Target, TurnTimeout
from .components import GAME_ITEMS, LobbyButton
from .language import LanguageCommands
from .lobbies import lobby_edit, new_lobby
from .notify import NotifyCommands
from .rematches import RematchPresses, offers_rematch, rematch_link_view
from .stats import STATS_ITEMS, StatsCommands
from .table_view import TableButton
from .text import jump_link, member_text, t
from .timely import answers_publicly
from .tournaments import TOURNAMENT_ITEMS, TournamentCommands

if TYPE_CHECKING:
    from .host import LamaHost


def _server_channel(interaction: discord.Interaction) -> tuple[int, int]:
    """The server and channel a game command is used in (guild_only() on a subcommand does
    not reach Discord, so a DM is refused here)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise HostingError(Problem.WRONG_CHANNEL)
    return interaction.guild_id, interaction.channel_id


def _is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server where the command is used: a command acts on its channel's game."""
    return manages_server(interaction, interaction.guild_id)


# The /lama group is one GroupCog made of parts, one per file: each part is a commands.Cog
# subclass in its own right (never added alone), whose app commands discord.py's CogMeta
# collects along the MRO into this one group; the parts expect `self.bot`, set here.
class Lama(
    RematchPresses,  # the Rematch button of a finished game (cogs/rematches.py)
    StatsCommands,  # /lama stats, history, replay, settings, forget-me (cogs/stats.py)
    TournamentCommands,  # /lama tournament new, standings, sign-up buttons (cogs/tournaments.py)
    LanguageCommands,  # /lama language (cogs/language.py)
    NotifyCommands,  # /lama notify (cogs/notify.py)
    commands.GroupCog,
    group_name="lama",
    group_description="Play LAMA in this server",
):
    def __init__(self, bot: LamaHost) -> None:
        self.bot = bot
        self.service = bot.service
        self.renderer = bot.renderer
        super().__init__()

    async def cog_load(self) -> None:
        # Every button this cog answers, so those of older messages work after a restart.
        Presses(self.bot, self).answer(*GAME_ITEMS, *STATS_ITEMS, *TOURNAMENT_ITEMS)

    async def cog_unload(self) -> None:
        Presses(self.bot, self).stop(*GAME_ITEMS, *STATS_ITEMS, *TOURNAMENT_ITEMS)

    def _locale(self, interaction: discord.Interaction) -> str:
        return self.bot.locales.locale_of(interaction)

    def _public_locale(self, interaction: discord.Interaction) -> str:
        return self.bot.locales.public_locale_of(interaction.guild_id, interaction.guild)

    async def _on_game_here(
        self, interaction: discord.Interaction, command: Callable[[int], Awaitable[GameUpdate]]
    ) -> GameUpdate:
        """`command` (given a game id) on this channel's game, wherever it was opened; where
        this process's copy had ended elsewhere, on the channel's next game."""
        _guild_id, channel_id = _server_channel(interaction)
        return await self.service.on_channel_game(channel_id, command)

    async def _show_lobby(self, interaction: discord.Interaction, update: GameUpdate) -> None:
        """Answer with the lobby itself (public) and remember where it is, and what it shows
        (the renderer's flush then leaves it as it is)."""
        view = update.view
        with self.renderer.lobbies.answering(view.game_id):
            # Loads the server settings: a rematch may be its first game since a restart.
            locale = await self.bot.locales.public_locale_for(interaction)
            content = new_lobby(view, locale)
            response = await interaction.response.send_message(**content)
            message_id = getattr(response, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
            channel_id = interaction.channel_id or view.channel_id
            await self.service.remember_message(view.game_id, LOBBY, channel_id, message_id)
            self.renderer.lobbies.shown(view.game_id, message_id, content)

    async def _post_lobby(self, interaction: discord.Interaction, view: GameView) -> None:
        """A rematch's lobby, posted in the game's channel (also when Rematch was pressed in
        the game's archived thread); the answer turns the pressed Rematch button into a link
        to it (an interaction response: free, and it is the one edit an archived thread's
        message takes). Pressed in a thread, the presser is also told where it is. A flush of
        the lobby cancelled meanwhile waits for the answer: the Rematch it gives back comes
        last."""
        reader = self._locale(interaction)
        with self.renderer.lobbies.answering(view.game_id):
            locale = await self.bot.locales.public_locale_for(interaction)
            channel = self.bot.get_partial_messageable(view.channel_id, guild_id=view.guild_id)
            content = new_lobby(view, locale)
            message = await channel.send(**content)
            await self.service.remember_message(view.game_id, LOBBY, view.channel_id, message.id)
            self.renderer.lobbies.shown(view.game_id, message.id, content)
            link = jump_link(view.guild_id, view.channel_id, message.id)
            if offers_rematch(interaction.message):
                await interaction.response.edit_message(
                    view=rematch_link_view(link, view.game_id, locale))
            else:
                await interaction.response.defer()
        if interaction.channel_id != view.channel_id:
            text = t("lobby.rematch_opened", reader, channel=f"<#{view.channel_id}>", link=link)
            await interaction.followup.send(text, ephemeral=True)

    # ---------------------------------------------------------------- lobby

    @answers_publicly
    @app_commands.command(name="new", description="Open a LAMA lobby in this channel")
    @app_commands.describe(
        variant="Rules: classic LAMA, the Party edition, or Lato z Komarami",
        target="The game ends when someone reaches this many points (default 40)",
        turn_timeout="Seconds a player has for a turn (default 120)",
        ai_seats="How many AI players to seat right away",
        ai_level="How strong the AI players are",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, ai_level=AI_LEVEL_CHOICES)
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction,
        variant: str | None = None,
        target: Target | None = None,
        turn_timeout: TurnTimeout | None = None,
        ai_seats: AiSeats = 0,
        ai_level: str | None = None,
    ) -> None:
        self._locale(interaction)
        guild_id, channel_id = _server_channel(interaction)
        defaults = await self.service.guild_defaults(guild_id)
        options = GameOptions(
            variant=variant or defaults.variant,
            target=target or defaults.target,
            turn_timeout=defaults.turn_timeout if turn_timeout is None else turn_timeout,
            ai_delay=defaults.ai_delay,
            ai_level=ai_level or defaults.ai_level,
        )
        self.service.check_channel_allowed(guild_id, channel_id)
        update = await self.service.open_lobby(
            guild_id,
            channel_id,
            interaction.user.id,
            interaction.user.display_name,
            options,
            ai_seats=ai_seats,
        )
        await self._show_lobby(interaction, update)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        locale = self._locale(interaction)
        user = interaction.user
        await self._on_game_here(
            interaction, lambda game_id: self.service.join(game_id, user.id, user.display_name))
        await interaction.response.send_message(t("lobby.you_joined", locale), ephemeral=True)

    @app_commands.command(name="leave", description="Leave the lobby, or hand your seat to an AI")
    async def leave(self, interaction: discord.Interaction) -> None:
        locale = self._locale(interaction)
        update = await self._on_game_here(
            interaction, lambda game_id: self.service.leave(game_id, interaction.user.id))
        key = "game.you_left" if update.view.status is Status.RUNNING else "lobby.you_left"
        await interaction.response.send_message(t(key, locale), ephemeral=True)

    @app_commands.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        locale = self._locale(interaction)
        await self._on_game_here(interaction, lambda game_id: self.service.start(
            game_id, interaction.user.id, is_admin=_is_admin(interaction)))
        # The lobby now says to everyone that the game started: the host needs no second copy.
        await interaction.response.send_message(t("lobby.you_started", locale), ephemeral=True)

    @app_commands.command(
        name="cancel", description=(
            "Cancel this channel's game (the host or Manage Server; a tournament table: its "
            "organiser)"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        """A tournament's table only with its tournament (hosting/tournament_cancel.py)."""
        locale = self._locale(interaction)
        await self._on_game_here(interaction, lambda game_id: self.bot.tournaments.cancel_game(
            game_id, interaction.user.id, is_admin=_is_admin(interaction)))
        await interaction.response.send_message(t("game.cancelled", locale), ephemeral=True)

    @app_commands.command(name="kick", description=(
        "Remove a player (the host or Manage Server; a tournament table: its organiser)"))
    @app_commands.describe(user="The player to remove; in a running game an AI takes the seat")
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        locale = self._locale(interaction)
        try:
            await self._on_game_here(interaction, lambda game_id: self.service.kick(
                game_id, interaction.user.id, user.id, is_admin=_is_admin(interaction),
                actor_name=interaction.user.display_name))
        except HostingError as error:
            if error.problem is Problem.NOT_SEATED:  # the service knows only the user's id
                error.details.setdefault("user", user.mention)
            raise
        name = member_text(user.display_name)
        await interaction.response.send_message(
            t("lobby.you_kicked", locale, name=name), ephemeral=True
        )

    async def lobby_button(self, interaction: discord.Interaction, button: LobbyButton) -> None:
        """The press's answer redraws the lobby; the renderer's flush leaves it as it is.
        Pressed in the game's server (LamaButton checks): Manage Server there may add AIs,
        start and cancel."""
        self._locale(interaction)
        game_id, is_admin = button.game_id, manages_server(interaction, button.home)
        with self.renderer.lobbies.answering(game_id):
            update = await self._lobby_action(interaction, game_id, button.action, is_admin)
            content = lobby_edit(update.view, self._public_locale(interaction))
            await interaction.response.edit_message(**content)
            pressed = interaction.message
            self.renderer.lobbies.shown(game_id, pressed.id if pressed else None, content)

    async def _lobby_action(
        self, interaction: discord.Interaction, game_id: int, action: str, is_admin: bool
    ) -> GameUpdate:
        user = interaction.user
        if action == "join":
            return await self.service.join(game_id, user.id, user.display_name)
        if action == "leave":
            return await self.service.leave(game_id, user.id)
        if action == "ai":
            return await self.service.add_ai(game_id, user.id, is_admin=is_admin)
        if action == "start":
            return await self.service.start(game_id, user.id, is_admin=is_admin)
        return await self.service.cancel(game_id, user.id, is_admin=is_admin)

    # ----------------------------------------------------------------- play

    @app_commands.command(name="hand", description="Show your hand again, privately")
    async def hand(self, interaction: discord.Interaction) -> None:
        locale = self._locale(interaction)
        view = await self.service.find_route(
            interaction.user.id, interaction.channel_id, interaction.guild_id)
        # What answers the table's "My hand" (the Moves cog) shows it.
        await press_handler(self.bot, TableButton).show_hand(interaction, view.game_id, locale)

    @app_commands.command(
        name="table", description="Post the table again at the bottom of the channel"
    )
    async def table(self, interaction: discord.Interaction) -> None:
        """The table as stored: a copy another process moved on (a DM move) or ended (its next
        game open here) is brought up to date first, as for /hand."""
        locale = self._locale(interaction)
        guild_id, channel_id = _server_channel(interaction)
        view = await self.service.find_route(interaction.user.id, channel_id, guild_id)
        if view.status is not Status.RUNNING:
            raise HostingError(Problem.GAME_NOT_STARTED)
        await interaction.response.send_message(t("table.reposted", locale), ephemeral=True)
        await self.renderer.refresh_table(view)

    @app_commands.command(name="rules", description="The rules of LAMA")
    @app_commands.describe(variant="Which rules (default: classic)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str = "classic") -> None:
        locale = self._locale(interaction)
        await interaction.response.send_message(
            embed=embeds.rules_embed(variant, locale), ephemeral=True
        )


async def setup(bot: LamaHost) -> None:
    await bot.add_cog(Lama(bot))
