"""Where messages live in the fake: guilds with roles and permissions, channels, threads.

Each renders itself as the JSON Discord would send, so discord.py builds real models from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from .ids import iso_now
from .model import (
    ALL_PERMISSIONS,
    FakeMessage,
    FakeRole,
    FakeUser,
)


@dataclass
class ThreadState:
    """What Discord keeps about a thread beyond a channel (its `thread_metadata`)."""

    parent: FakeChannel
    owner_id: int
    created: str = field(default_factory=iso_now)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archived_at: str = field(default_factory=iso_now)  # last change of `archived`

    def metadata(self) -> dict[str, Any]:
        return {
            "archived": self.archived, "locked": self.locked,
            "auto_archive_duration": self.auto_archive_duration,
            "archive_timestamp": self.archived_at, "create_timestamp": self.created,
        }


@dataclass
class FakeChannel:
    id: int
    name: str | None
    type: int = 0  # 0 guild text, 1 DM, 11 public thread
    guild_id: int | None = None
    position: int = 0
    recipient: FakeUser | None = None  # DM channels only
    # target id → (type 0 role / 1 member, allow, deny)
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    messages: list[FakeMessage] = field(default_factory=list)
    thread: ThreadState | None = None  # threads only

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.thread is not None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_json(self, *, me: FakeUser | None = None) -> dict[str, Any]:
        last = str(self.messages[-1].id) if self.messages else None
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id), "type": 1, "last_message_id": last, "flags": 0,
                "recipients": [self.recipient.to_json()],
            }
        if self.thread is not None:
            return self._thread_json(last)
        return {
            "id": str(self.id), "type": self.type, "guild_id": str(self.guild_id),
            "name": self.name, "position": self.position, "parent_id": None, "nsfw": False,
            "topic": None, "last_message_id": last, "rate_limit_per_user": 0, "flags": 0,
            "permission_overwrites": [
                {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
                for target, (kind, allow, deny) in self.overwrites.items()
            ],
        }

    def _thread_json(self, last: str | None) -> dict[str, Any]:
        assert self.thread is not None
        count = len([m for m in self.messages if not m.ephemeral and m.type == 0])
        return {
            "id": str(self.id), "type": self.type, "guild_id": str(self.guild_id),
            "parent_id": str(self.thread.parent.id), "owner_id": str(self.thread.owner_id),
            "name": self.name, "last_message_id": last, "rate_limit_per_user": 0, "flags": 0,
            "message_count": count, "total_message_sent": count, "member_count": 1,
            "thread_metadata": self.thread.metadata(),
        }

    def visible_messages(self) -> list[FakeMessage]:
        return [m for m in self.messages if not m.deleted and not m.ephemeral]


@dataclass
class FakeGuild:
    id: int
    name: str
    owner: FakeUser
    preferred_locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeUser] = field(default_factory=dict)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def channel(self, name: str) -> FakeChannel:
        for channel in self.channels.values():
            if channel.name == name.lstrip("#"):
                return channel
        raise LookupError(f"no channel #{name} in {self.name}")

    def base_permissions(self, user: FakeUser) -> int:
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        value = self.everyone.permissions
        for role_id in self.role_ids(user):
            value |= self.roles[role_id].permissions
        administrator = discord.Permissions(administrator=True).value
        return ALL_PERMISSIONS if value & administrator else value

    def channel_permissions(self, user: FakeUser, channel: FakeChannel) -> int:
        """Discord's permission algorithm: roles, then @everyone, role and member overwrites;
        a thread has its parent channel's permissions."""
        if channel.thread is not None:
            channel = channel.thread.parent
        value = self.base_permissions(user)
        if value == ALL_PERMISSIONS:
            return value
        overwrites = channel.overwrites
        if self.id in overwrites:
            _, allow, deny = overwrites[self.id]
            value = (value & ~deny) | allow
        role_allow = role_deny = 0
        for role_id in self.role_ids(user):
            if role_id in overwrites:
                role_allow |= overwrites[role_id][1]
                role_deny |= overwrites[role_id][2]
        value = (value & ~role_deny) | role_allow
        if user.id in overwrites:
            _, allow, deny = overwrites[user.id]
            value = (value & ~deny) | allow
        return value

    def role_ids(self, user: FakeUser) -> list[int]:
        """The user's roles in this guild (``user.role_ids`` spans every guild)."""
        return [r for r in user.role_ids if r in self.roles]

    def member_json(self, user: FakeUser, *, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": user.to_json(), "nick": None, "avatar": None, "banner": None,
            "roles": [str(r) for r in self.role_ids(user)], "joined_at": user.joined_at,
            "premium_since": None, "deaf": False, "mute": False, "flags": 0, "pending": False,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id), "name": self.name, "icon": None, "splash": None,
            "discovery_splash": None, "banner": None, "description": None,
            "owner_id": str(self.owner.id), "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 1,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
            "premium_subscription_count": 0, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None,
            "public_updates_channel_id": None, "safety_alerts_channel_id": None,
            "preferred_locale": self.preferred_locale, "features": [],
            "roles": [r.to_json() for r in self.roles.values()], "emojis": [], "stickers": [],
            "vanity_url_code": None, "max_members": 500000, "max_video_channel_users": 25,
            "premium_progress_bar_enabled": False,
        }

    def create_event(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: the guild plus members, channels and the rest."""
        data = self.to_json()
        data.update(
            unavailable=False, large=False, member_count=len(self.members),
            joined_at=self.owner.joined_at, lazy=True,
            members=[self.member_json(u) for u in self.members.values()],
            channels=[c.to_json() for c in self.channels.values() if not c.is_thread],
            threads=[c.to_json() for c in self.channels.values()
                     if c.thread is not None and not c.thread.archived],
            presences=[], voice_states=[], stage_instances=[],
            guild_scheduled_events=[], soundboard_sounds=[],
        )
        return data
