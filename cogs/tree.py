"""The slash-command tree: every command and autocomplete is answered in time however slow its
work (cogs.timely), knows the reader's language before it runs (buttons do both in
cogs.buttons.LamaButton), and has every refusal answered in one place (cogs.errors.report).
Where the bot offers the Activity, a global sync registers its Entry Point command too
(discord.py knows no such command: its payload is added to the slash commands')."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from .activity import PRIMARY_ENTRY_POINT
from .errors import report
from .host import host_of
from .timely import command_deferral, keep_in_time

log = logging.getLogger(__name__)

# Discord's refusal of a bulk sync that would drop the application's Entry Point command.
ENTRY_POINT_KEPT = 50240


class LamaTree(app_commands.CommandTree):
    # The Activity's Entry Point command (cogs/activity.py), when the bot offers it: Discord
    # refuses a global sync that leaves out an application's Entry Point once Activities
    # are enabled for it.
    entry_point: dict[str, Any] | None = None

    async def global_payload(self) -> list[dict[str, Any]]:
        """What a global sync registers: every command, translated, then the Entry Point."""
        commands, translator = self.get_commands(), self.translator
        if translator is None:
            payload = [c.to_dict(self) for c in commands]
        else:
            payload = [await c.get_translated_payload(self, translator) for c in commands]
        return payload + ([self.entry_point] if self.entry_point is not None else [])

    async def sync(
        self, *, guild: discord.abc.Snowflake | None = None
    ) -> list[app_commands.AppCommand]:
        if guild is not None:
            return await super().sync(guild=guild)
        if self.client.application_id is None:
            raise app_commands.MissingApplicationID
        payload = await self.global_payload()
        try:
            data = await self._http.bulk_upsert_global_commands(
                self.client.application_id, payload=payload)
        except discord.HTTPException as error:
            if error.code != ENTRY_POINT_KEPT or self.entry_point is not None:
                raise
            # Activities are enabled for the application in the Developer Portal but not
            # offered by this bot: the Entry Point Discord has stays as it is.
            kept = await self._entry_points_registered()
            data = await self._http.bulk_upsert_global_commands(
                self.client.application_id, payload=payload + kept)
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]

    async def _entry_points_registered(self) -> list[dict[str, Any]]:
        assert self.client.application_id is not None
        registered: list[Any] = await self._http.get_global_commands(self.client.application_id)
        fields = ("type", "name", "description", "name_localizations",
                  "description_localizations", "handler", "integration_types", "contexts",
                  "default_member_permissions", "nsfw")
        return [{k: c[k] for k in fields if c.get(k) is not None}
                for c in registered if c.get("type") == PRIMARY_ENTRY_POINT]

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
