"""Command names in messages as Discord command mentions: `</lama hand:ID>`.

Discord shows a mention as the reader's own localized command name and runs the command when
it is clicked, so a Czech player reads their Czech /lama name where an English one would
confuse. A mention needs the command's id, which Discord assigns when the commands are synced:
the bot learns them once at start-up (from the sync, or one fetch when nothing changed).
Until it knows an id — or where Discord would not render a mention (footers, titles) — the
plain English `/lama hand` is shown.

The ids are per application, the same in every server, language and message, and the text
that carries them is built by pure functions all over cogs/ (errors, embeds, summaries), so
they live in this one process-wide table instead of travelling through every signature.
"""

from __future__ import annotations

from collections.abc import Iterable

from discord import AppCommandType
from discord.app_commands import AppCommand


class CommandMentions:
    """The ids of this application's top-level slash commands, by name."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def learn(self, commands: Iterable[AppCommand]) -> None:
        """Remember the ids Discord gave the commands (replacing what was known)."""
        self._ids = {c.name: c.id for c in commands if c.type is AppCommandType.chat_input}

    def forget(self) -> None:
        self._ids = {}

    def mention(self, path: str) -> str:
        """`"lama hand"` → `</lama hand:123>`, or `/lama hand` while the id is unknown."""
        command_id = self._ids.get(path.split()[0])
        return f"</{path}:{command_id}>" if command_id else f"/{path}"


COMMANDS = CommandMentions()


def command(path: str) -> str:
    """How a message names the slash command `path` ("lama hand", "play")."""
    return COMMANDS.mention(path)
