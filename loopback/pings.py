"""Which mentions a message body makes Discord resolve, and so whom it notifies.

As Discord's documentation says (Allowed Mentions Object; Edit Message):
- Mentions are parsed from a message's `content` and, in a Components V2 message, from its
  text displays; never from embeds. `@everyone`, `@here`, `<@id>` / `<@!id>` (a user),
  `<@&id>` (a role).
- `allowed_mentions` decides which of them notify. Absent, Discord's default applies: in a
  regular message (`/channels/…/messages`) every type (`everyone`, `users`, `roles`); in an
  interaction's answer or a webhook message (callbacks, follow-ups, edits through the token)
  `users` only. Present: the types named in `parse`, plus the ids listed in `users` and
  `roles` (a type in `parse` together with a non-empty list of it is refused, limits.py).
- A create always resolves. An edit resolves anew only when it carries the text (`content`,
  or a V2 message's `components`), by its own `allowed_mentions` or else by the default:
  never by the one the message was created with.
- Permissions still apply: `@everyone` and `@here` need MENTION_EVERYONE in the channel; a
  role needs to be mentionable, or MENTION_EVERYONE; a DM resolves users only. A user
  resolves if Discord knows them.

Discord's own parser skips some text (code blocks); this one does not: it errs towards a
ping, which is the safe side for a test that asserts there is none.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from .model import FakeMessage
from .records import Pings, RestCall
from .world import World

USER = re.compile(r"<@!?(\d+)>")
ROLE = re.compile(r"<@&(\d+)>")
TYPES = ("everyone", "users", "roles")
_TOKEN_PATHS = ("/interactions/", "/webhooks/")  # Discord's default there: users only
_TEXT_DISPLAY = 10


def _text(message: FakeMessage, body: dict[str, Any], created: bool) -> str | None:
    """The text mentions are parsed from, as the message stands after the body; None: the
    body left the text alone (an edit of embeds, buttons or files only)."""
    if message.components_v2:
        if not created and "components" not in body:
            return None
        return "\n".join(c.get("content") or "" for c in message.walk_components()
                         if c.get("type") == _TEXT_DISPLAY)
    if not created and "content" not in body:
        return None
    return message.content


def _ids(allowed: dict[str, Any], kind: str) -> set[int]:
    return {int(i) for i in allowed.get(kind) or []}


def resolve(
    fake: World, call: RestCall, message: FakeMessage, body: dict[str, Any] | None, *,
    created: bool,
) -> Pings | None:
    """Resolve the mentions of `message` after `body` was applied (`created`: it made the
    message): the message's `mentions`, `mention_roles` and `mention_everyone` are rebuilt,
    and the result is recorded in `fake.pings`."""
    body = body or {}
    text = _text(message, body, created)
    if text is None:
        return None
    given = body.get("allowed_mentions")
    explicit = isinstance(given, dict)
    allowed: dict[str, Any] = given if isinstance(given, dict) else {
        "parse": ["users"] if call.path.startswith(_TOKEN_PATHS) else list(TYPES)}
    parse = set(allowed.get("parse") or [])
    guild = fake.guilds.get(message.guild_id) if message.guild_id is not None else None
    may_everyone = False
    if guild is not None:
        channel = fake.channels[message.channel_id]
        may_everyone = discord.Permissions(
            guild.channel_permissions(fake.bot, channel)).mention_everyone
    listed_users, listed_roles = _ids(allowed, "users"), _ids(allowed, "roles")
    users = frozenset(
        int(i) for i in USER.findall(text)
        if int(i) in fake.users_by_id and ("users" in parse or int(i) in listed_users))
    roles = frozenset(
        int(i) for i in ROLE.findall(text)
        if guild is not None and int(i) in guild.roles and int(i) != guild.id
        and ("roles" in parse or int(i) in listed_roles)
        and (guild.roles[int(i)].mentionable or may_everyone))
    mass = guild is not None and "everyone" in parse and may_everyone
    pings = Pings(call.route, message.id, message.channel_id, text, explicit,
                  mass and "@everyone" in text, mass and "@here" in text, roles, users)
    message.mention_everyone = pings.everyone or pings.here
    message.mentions = [fake.users_by_id[u].to_json() for u in sorted(users)]
    message.mention_roles = sorted(roles)
    fake.pings.append(pings)
    return pings
