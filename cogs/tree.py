"""The slash-command tree: every command and autocomplete is answered in time however slow its
work (cogs.timely), knows the reader's language before it runs (buttons do both in
cogs.buttons.LamaButton), and has every refusal answered in one place (cogs.errors.report)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from .errors import report
from .host import host_of
from .timely import command_deferral, keep_in_time

log = logging.getLogger(__name__)


class LamaTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        keep_in_time(interaction, command_deferral(interaction))  # first: the clock runs
        try:
            await host_of(interaction).preferences.load_user_choice(interaction.user.id)
        except Exception as error:
            # The tree hands only AppCommandErrors to on_error: anything else would leave the
            # caller with the clock's "thinking…" for good. Told now; nothing else runs.
            await self._refuse(interaction, error)
            return False
        return True

    async def _refuse(self, interaction: discord.Interaction, error: Exception) -> None:
        if interaction.type is discord.InteractionType.autocomplete:
            log.warning("no choices for user %s: %r", interaction.user.id, error)
            await interaction.response.autocomplete([])
        else:
            await report(interaction, error)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)
