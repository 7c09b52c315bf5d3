"""Whom a message may notify: nobody, unless it means to ping the players it names.

Member-written text is in many messages (display names, tournament names), and Discord turns
any "@everyone", "@here", "<@&role>" or "<@user>" in a message's text into a ping unless the
message's `allowed_mentions` says otherwise: by default everything in a channel message,
users in an interaction's answer. So the bot's client carries `NOBODY` (bot.py), which
discord.py sends with every message and interaction answer that has content, and every
message that means to ping names its players, and only them, with `only(...)`.

Two traps this avoids: discord.py sends the client's default with an edit only when the edit
carries `content`, so an edit of a Components V2 message (whose text is in its components:
the table) passes `NOBODY` itself (`quiet`); and `discord.AllowedMentions(users=True)` alone
also allows everyone and roles (its payload parses all three).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

NOBODY = discord.AllowedMentions.none()


def only(user_ids: Iterable[int | None]) -> discord.AllowedMentions:
    """Pings for these users (None: an AI's seat, skipped) and nobody else."""
    ids = sorted({user_id for user_id in user_ids if user_id is not None})
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(user_id) for user_id in ids] or False)


def quiet(content: dict[str, Any]) -> dict[str, Any]:
    """An edit's keyword arguments that ping nobody (unless they say whom themselves)."""
    return {"allowed_mentions": NOBODY, **content}
