"""What Discord keeps of an application's Activities: the running instances (where, who),
and the OAuth2 codes and tokens its users' sign-ins hand out (`fake.activities`). The routes
and rules that read and change it are in activities.py."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from .model import FakeUser
from .places import FakeChannel
from .records import RestCall

CODE_LIFETIME = 10 * 60  # seconds (fake clock) an authorization code may be traded
TOKEN_LIFETIME = 7 * 24 * 3600  # an access token's `expires_in`


@dataclass
class FakeActivityInstance:
    """One running Activity: where it was launched and who is in it now."""

    id: str
    launch_id: str
    channel: FakeChannel
    users: list[int] = field(default_factory=list)

    def to_json(self, application_id: int) -> dict[str, Any]:
        channel = self.channel
        if channel.is_dm:
            location: dict[str, Any] = {"id": f"pc-{channel.id}", "kind": "pc",
                                        "channel_id": str(channel.id)}
        else:
            location = {"id": f"gc-{channel.guild_id}-{channel.id}", "kind": "gc",
                        "channel_id": str(channel.id), "guild_id": str(channel.guild_id)}
        return {"application_id": str(application_id), "instance_id": self.id,
                "launch_id": self.launch_id, "location": location,
                "users": [str(u) for u in self.users]}


@dataclass
class Grant:
    """An authorization code or an access token: whose, for which scopes, until when."""

    user: FakeUser
    scopes: tuple[str, ...]
    expires_at: float  # the fake's clock
    used: bool = False


class Activities:
    """The application's Activities as Discord keeps them (`fake.activities`)."""

    def __init__(self) -> None:
        self.enabled = False  # the Developer Portal's "Enable Activities" (the EMBEDDED flag)
        self.client_secret = secrets.token_urlsafe(24)  # the application's OAuth2 secret
        self.instances: dict[str, FakeActivityInstance] = {}
        self.codes: dict[str, Grant] = {}
        self.tokens: dict[str, Grant] = {}
        self.exchanges: list[RestCall] = []  # every POST /oauth2/token, answered or not

    def in_channel(self, channel: FakeChannel) -> FakeActivityInstance | None:
        return next((i for i in self.instances.values() if i.channel.id == channel.id), None)

    def launch(self, user: FakeUser, channel: FakeChannel, snowflake: int) -> FakeActivityInstance:
        """`user` starts the Activity in `channel`, or joins the instance running there."""
        if not self.enabled:
            raise RuntimeError("the application has no Activities (fake.activities.enabled)")
        instance = self.in_channel(channel)
        if instance is None:
            where = f"pc-{channel.id}" if channel.is_dm else f"gc-{channel.guild_id}-{channel.id}"
            instance = FakeActivityInstance(f"i-{snowflake}-{where}", str(snowflake), channel)
            self.instances[instance.id] = instance
        if user.id not in instance.users:
            instance.users.append(user.id)
        return instance

    def leave(self, user: FakeUser, instance: FakeActivityInstance) -> None:
        """`user` closes the Activity; the last one out ends the instance."""
        if user.id in instance.users:
            instance.users.remove(user.id)
        if not instance.users:
            self.instances.pop(instance.id, None)

    def authorize(self, user: FakeUser, now: float, scopes: tuple[str, ...] = ("identify",)) -> str:
        """What the SDK's `authorize` command returns once `user` agreed: a code for the app."""
        code = secrets.token_urlsafe(22)
        self.codes[code] = Grant(user, scopes, now + CODE_LIFETIME)
        return code

    def bearer(self, token: str, now: float) -> Grant | None:
        grant = self.tokens.get(token)
        return grant if grant is not None and now < grant.expires_at else None
