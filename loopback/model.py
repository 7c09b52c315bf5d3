"""The fake's world: users, a guild with roles and channels, DM channels and messages.

Each object renders itself as the JSON Discord would send, so discord.py builds real
models from it; messages keep their current state (after edits) for tests to inspect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from .ids import iso_now

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
ALL_PERMISSIONS = discord.Permissions.all().value

EVERYONE_PERMISSIONS = discord.Permissions(
    create_instant_invite=True, add_reactions=True, view_channel=True, send_messages=True,
    embed_links=True, attach_files=True, read_message_history=True, mention_everyone=True,
    use_external_emojis=True, connect=True, speak=True, use_voice_activation=True,
    change_nickname=True, use_application_commands=True, create_public_threads=True,
    create_private_threads=True, use_external_stickers=True, send_messages_in_threads=True,
    use_embedded_activities=True,
).value
BOT_ROLE_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True,
    read_message_history=True, add_reactions=True, use_external_emojis=True,
    manage_messages=True, send_messages_in_threads=True,
).value


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"
    dms_open: bool = True
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)
    global_name: str | None = None  # the display name; None: the name, title-cased

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_json(self) -> dict[str, Any]:
        data = {
            "id": str(self.id), "username": self.name,
            "global_name": self.name.title() if self.global_name is None else self.global_name,
            "discriminator": "0", "avatar": None, "public_flags": 0, "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    mentionable: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "permissions": str(self.permissions),
            "position": self.position, "color": 0, "colors": {"primary_color": 0},
            "hoist": False, "managed": self.managed, "mentionable": self.mentionable, "flags": 0,
            "icon": None, "unicode_emoji": None, "description": None,
        }


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = {
            "id": str(self.id), "filename": self.filename, "size": len(self.data),
            "url": self.url, "proxy_url": self.url, "description": self.description,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        return data


@dataclass(frozen=True)
class Button:
    custom_id: str | None
    label: str | None
    disabled: bool
    style: int
    url: str | None = None
    emoji: str | None = None  # a Unicode emoji, or a custom emoji's name
    emoji_id: int | None = None  # a custom emoji's id (an application emoji)


@dataclass
class FakeMessage:
    """A message as Discord holds it now; ``content``/``embeds``/``components`` follow edits."""

    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    guild_id: int | None = None
    application_id: int | None = None  # set on interaction responses (webhook messages)
    interaction: dict[str, Any] | None = None  # interaction_metadata
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    deleted: bool = False
    edits: int = 0
    started_thread: Any = None  # the FakeChannel of a thread started from this message
    # what its text resolved into (pings.py): rebuilt by a create and by an edit of the text
    mention_everyone: bool = False
    mentions: list[dict[str, Any]] = field(default_factory=list)  # user objects
    mention_roles: list[int] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def walk_components(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        stack = list(reversed(self.components))
        while stack:
            component = stack.pop()
            found.append(component)
            children = component.get("components") or []
            accessory = component.get("accessory")
            stack.extend(reversed([*children, *([accessory] if accessory else [])]))
        return found

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk_components() if c.get("custom_id")]

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(
                c.get("custom_id"), c.get("label"), bool(c.get("disabled")), c.get("style", 1),
                c.get("url"), (c.get("emoji") or {}).get("name"),
                int(c["emoji"]["id"]) if (c.get("emoji") or {}).get("id") else None,
            )
            for c in self.walk_components()
            if c.get("type") == 2
        ]

    def button(self, label_or_custom_id: str) -> Button:
        for button in self.buttons:
            if label_or_custom_id in (button.label, button.custom_id):
                return button
        raise LookupError(f"no button {label_or_custom_id!r} in message {self.id}: {self.buttons}")

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    @property
    def embed_text(self) -> str:
        """Every human-readable string of every embed, one per line (handy for asserts)."""
        lines: list[str] = []
        for embed in self.embeds:
            lines += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                lines += [f.get("name") or "", f.get("value") or ""]
            lines += [(embed.get("footer") or {}).get("text") or ""]
        return "\n".join(line for line in lines if line)

    @property
    def display_text(self) -> str:
        """The text displays of a Components V2 message, one per line, in order."""
        return "\n".join(
            c.get("content") or "" for c in self.walk_components() if c.get("type") == 10
        )

    @property
    def components_v2(self) -> bool:
        return bool(self.flags & IS_COMPONENTS_V2)

    @property
    def media_urls(self) -> list[str]:
        """Every media gallery item's URL, e.g. "attachment://table.png"."""
        return [
            (item.get("media") or {}).get("url", "")
            for c in self.walk_components()
            if c.get("type") == 12
            for item in c.get("items") or []
        ]

    @property
    def text(self) -> str:
        parts = (self.content, self.embed_text, self.display_text)
        return "\n".join(part for part in parts if part)

    def to_json(self, *, with_guild: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id), "channel_id": str(self.channel_id),
            "author": self.author.to_json(), "content": self.content,
            "timestamp": self.timestamp, "edited_timestamp": self.edited_timestamp,
            "tts": False, "mention_everyone": self.mention_everyone, "mentions": self.mentions,
            "mention_roles": [str(r) for r in self.mention_roles],
            "attachments": [a.to_json() for a in self.attachments], "embeds": self.embeds,
            "components": self.components, "pinned": False, "type": self.type,
            "flags": self.flags,
        }
        if self.application_id is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction
        if with_guild and self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.started_thread is not None:
            data["thread"] = self.started_thread.to_json()
        return data


THREAD_TYPES = (10, 11, 12)  # announcement, public and private threads
