"""The Activity's side in Discord (docs/activity.md): whether this bot offers it, the answer to
its "Open the table" button (LAUNCH_ACTIVITY, callback type 12), and its Entry Point command.

Whether the Activity is offered is one answer for the whole process (the web pages served at
a public URL, and the client secret: `Settings.activity_enabled`), and the table and lobby
messages that show its button are built by pure functions all over cogs/, so, like the command
mentions (cogs/mentions.py), it lives in this one process-wide value that bot.py sets at
start-up and clears at close. Off, nothing anywhere mentions an Activity.
"""

from __future__ import annotations

from typing import Any

import discord

import i18n

from .errors import answer
from .text import t
from .timely import TimelyResponse
from .translator import TRANSLATED_LOCALES

PRIMARY_ENTRY_POINT = 4  # the command type of an Activity's Entry Point (the App Launcher)
DISCORD_LAUNCH_ACTIVITY = 2  # its handler: Discord launches the Activity, the bot hears nothing
GUILD_INSTALL, GUILD_CHANNEL = 0, 0  # where it is offered: games are a server's
OPEN_EMOJI = "🎴"


class ActivityOffer:
    """Whether this process offers the Activity (its button, its Entry Point command)."""

    def __init__(self) -> None:
        self.enabled = False

    def offer(self) -> None:
        self.enabled = True

    def forget(self) -> None:
        self.enabled = False  # another bot in this process (tests) decides for itself


ACTIVITY = ActivityOffer()


async def launch(interaction: discord.Interaction, locale: str) -> None:
    """Take the presser into the channel's Activity. Discord takes a launch only as the first
    answer: one too late (a slow press, already acknowledged) says to press again."""
    response = interaction.response
    if isinstance(response, TimelyResponse):
        if await response.launch_activity() is None:
            await answer(interaction, t("error.open_table_late", locale))
        return
    await response.launch_activity()


def open_button_label(locale: str) -> str:
    return t("table.button.open", locale)


def entry_point_command() -> dict[str, Any]:
    """The Entry Point command as Discord registers it: Discord launches the Activity itself
    (handler 2), in a server's channels, named and described in every language."""
    names, descriptions = {}, {}
    for locale, language in TRANSLATED_LOCALES.items():
        names[locale.value] = i18n.translate("cmd.launch.name", language)
        descriptions[locale.value] = i18n.translate("cmd.launch.description", language)
    return {
        "type": PRIMARY_ENTRY_POINT, "handler": DISCORD_LAUNCH_ACTIVITY,
        "name": i18n.translate("cmd.launch.name", i18n.DEFAULT_LOCALE),
        "description": i18n.translate("cmd.launch.description", i18n.DEFAULT_LOCALE),
        "name_localizations": names, "description_localizations": descriptions,
        "integration_types": [GUILD_INSTALL], "contexts": [GUILD_CHANNEL],
    }
