"""What the loopback Discord keeps of the traffic: each REST call (`RestCall`, its files), the
refusals Discord answers with (`DiscordError`), each interaction (`InteractionRecord`) and what
each message body pinged (`Pings`).

Plain records, below everything that fills them: the world (world.py) names them, and the
handlers that make them import them from here.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from . import ratelimits
from .model import FakeMessage, FakeUser
from .places import FakeChannel

# An interaction's type (`InteractionRecord.type`), as Discord numbers them.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5


class DiscordError(Exception):
    """Raised by a handler to answer the way Discord answers a refused request."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def unknown(what: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


@dataclass
class UploadedFile:
    field: str  # "files[0]"
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class RestCall:
    """One REST request as the bot made it (tests count these to price a move)."""

    method: str
    route: str  # "POST /channels/{channel_id}/messages", or the raw path if unknown
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[UploadedFile]
    time: float  # the fake's clock
    status: int = 0
    bearer: Any = None  # made with a user's OAuth2 token: its grant (activities.Grant)

    @property
    def rate_limited(self) -> bool:
        """Counts against Discord's rate limits (everything but the interaction endpoints:
        callbacks, follow-ups and edits through the interaction token)."""
        return ratelimits.is_rate_limited(self.path)

    @property
    def filenames(self) -> list[str]:
        return [f.filename for f in self.files]


@dataclass
class InteractionRecord:
    """Discord's side of one interaction: what was sent to the bot and what it answered."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: dict[str, Any]
    created_at: float  # the fake's clock
    source_message: FakeMessage | None = None  # the message whose component was used
    response_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    refused: DiscordError | None = None  # why the first answer was refused, if it was
    answered_after: float | None = None  # real seconds from dispatch to first answer
    edits_at_answer: int = 0  # the response message's edit count right after the answer
    activity_instance: Any = None  # answered with LAUNCH_ACTIVITY: the instance it opened
    started: float = field(default_factory=time.perf_counter)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def message_type(self) -> int:
        # CHAT_INPUT_COMMAND for slash-command replies, DEFAULT for component replies
        return 20 if self.type == APPLICATION_COMMAND else 0

    def touch(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()


@dataclass
class HeldCall:
    """A call the fake holds (`FakeDiscord.hold_next`): it waits, before Discord does its work
    or (`after_work`) after it and before the answer, until the test lets it go. A crash test
    kills the bot there, at that very moment of the call; released without `work`, a call held
    before its work is lost as if it never arrived (a dead bot's request Discord never got)."""

    route: str
    after_work: bool
    call: RestCall | None = None
    _reached: asyncio.Event = field(default_factory=asyncio.Event)
    _released: asyncio.Event = field(default_factory=asyncio.Event)
    _work: bool = True

    async def reached(self, timeout: float = 30.0) -> RestCall:
        """The held call, once it arrived (and, `after_work`, once its work is done)."""
        await asyncio.wait_for(self._reached.wait(), timeout)
        assert self.call is not None
        return self.call

    def release(self, *, work: bool = True) -> None:
        """Let it go on; `work` False: a call held before its work is dropped undone."""
        self._work = work
        self._released.set()

    async def hold(self, call: RestCall) -> bool:
        """(The fake's side.) Wait for the test; whether to do the work."""
        self.call = call
        self._reached.set()
        await self._released.wait()
        return self._work


@dataclass(frozen=True)
class Pings:
    """What one request body made Discord resolve in its message: who a new message notifies,
    whom an edit mentions anew."""

    route: str
    message_id: int
    channel_id: int
    text: str  # what it was resolved from
    explicit: bool  # the body carried `allowed_mentions` (else Discord's default applied)
    everyone: bool  # @everyone
    here: bool  # @here
    roles: frozenset[int]
    users: frozenset[int]

    @property
    def mass(self) -> bool:
        """It notifies more than named users: everyone, whoever is here, or a role."""
        return self.everyone or self.here or bool(self.roles)
