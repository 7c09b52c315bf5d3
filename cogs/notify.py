"""/lama notify: whether the bot DMs you when it is your turn, as a mixin of the /lama GroupCog.

Off: no turn DMs at all (and no hand DMs when a round starts); the table shows whose turn it
is and its My hand button shows your cards privately. The choice is stored per user
(`hosting.Preferences`, the store's `user_notify` table) and holds in every server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from .text import t

if TYPE_CHECKING:
    from .host import LamaHost


class NotifyCommands(commands.Cog):
    """Mixin for the /lama GroupCog: turn DMs on or off."""

    bot: LamaHost

    @app_commands.command(name="notify", description="Get a DM when it is your turn, or not")
    @app_commands.describe(turn_dms="On: a DM on your turn. Off: play from the table's My hand")
    async def notify(
        self, interaction: discord.Interaction, turn_dms: bool | None = None
    ) -> None:
        locale = self.bot.locales.locale_of(interaction)
        preferences = self.bot.preferences
        if turn_dms is not None:
            await preferences.set_turn_dms(interaction.user.id, turn_dms)
        on = await preferences.load_turn_dms(interaction.user.id)
        key = "notify.on" if on else "notify.off"
        await interaction.response.send_message(t(key, locale), ephemeral=True)
