"""The Activity's own sessions: who a browser is, in which Activity instance and channel,
for 15 minutes, signed by the bot.

Once Discord has told the backend who the user is and that they are in the instance
(signin.py), the browser gets a session: the user, the instance, its channel and server, the
user's name and language, and when it expires, as base64url JSON, then a dot, then its
HMAC-SHA256 (`secrets.compare_digest` checks it). The key is derived from the application's
client secret (sha256 of "lamabot-activity-session" and the secret), so every process of the
bot verifies what any of them signed and nothing else can sign one; the secret itself never
leaves the bot. A session that does not verify, has expired or names another instance than
the one asking is refused, each with its reason (`SessionRefused.reason`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

LIFETIME_S = 15 * 60
KEY_LABEL = b"lamabot-activity-session"
LONGEST = 2048  # characters; a session is far shorter, and nothing longer is even decoded


class Refusal(StrEnum):
    FORGED = "session"  # it does not verify: made up, changed, or signed with another key
    EXPIRED = "expired"
    OTHER_INSTANCE = "other_instance"  # a session for another Activity instance


class SessionRefused(Exception):
    def __init__(self, reason: Refusal) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True)
class Session:
    user_id: int
    instance_id: str
    channel_id: int
    guild_id: int | None  # None: launched in a DM (no game can be played there)
    name: str  # what the user is called (their Discord display name)
    locale: str  # the language they read
    expires_at: float  # Unix seconds

    def to_json(self) -> dict[str, Any]:
        return {"u": str(self.user_id), "i": self.instance_id, "c": str(self.channel_id),
                "g": None if self.guild_id is None else str(self.guild_id), "n": self.name,
                "l": self.locale, "e": self.expires_at}

    @classmethod
    def from_json(cls, data: Any) -> Session:
        guild = data["g"]
        return cls(int(data["u"]), str(data["i"]), int(data["c"]),
                   None if guild is None else int(guild), str(data["n"]), str(data["l"]),
                   float(data["e"]))


def session_key(client_secret: str) -> bytes:
    return hashlib.sha256(KEY_LABEL + client_secret.encode()).digest()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SessionKeys:
    """Signs and verifies sessions with the key of one client secret."""

    def __init__(self, client_secret: str) -> None:
        self._key = session_key(client_secret)

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode(), hashlib.sha256).digest())

    def sign(self, session: Session) -> str:
        payload = _b64(json.dumps(session.to_json(), separators=(",", ":")).encode())
        return f"{payload}.{self._mac(payload)}"

    def verify(self, token: str, now: float, instance_id: str | None = None) -> Session:
        """The session `token` holds, if it verifies, has not expired at `now` and (given
        `instance_id`) belongs to that instance; else `SessionRefused` saying why."""
        payload, _, mac = token.partition(".") if len(token) <= LONGEST else ("", "", "")
        if not payload or not hmac.compare_digest(mac.encode(), self._mac(payload).encode()):
            raise SessionRefused(Refusal.FORGED)
        try:
            session = Session.from_json(json.loads(_unb64(payload)))
        except (ValueError, KeyError, TypeError, binascii.Error):
            raise SessionRefused(Refusal.FORGED) from None  # ours, yet unreadable: a bug
        if now >= session.expires_at:
            raise SessionRefused(Refusal.EXPIRED)
        if instance_id is not None and instance_id != session.instance_id:
            raise SessionRefused(Refusal.OTHER_INSTANCE)
        return session
