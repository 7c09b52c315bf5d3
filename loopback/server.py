"""FakeDiscord: the loopback Discord's state, its aiohttp server, faults and error records."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import discord
from aiohttp import web

from . import emojis, interactions, messages, rest_basic  # noqa: F401  (REST handlers)
from .activities import oauth_token
from .activity_driver import ActivityDriver
from .activity_state import Activities
from .gateway import INTENT_GUILDS, Gateway, shard_of
from .hook import gateway_url_for
from .ids import Clock, Snowflakes
from .model import (
    BOT_ROLE_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FakeAttachment,
    FakeMessage,
    FakeRole,
    FakeUser,
)
from .places import FakeChannel, FakeGuild
from .ratelimits import RateLimits
from .records import HeldCall, InteractionRecord, Pings, RestCall, unknown
from .rest import dispatch
from .spec import OpenApiSpec, load_spec

BAD_TOKEN = "bad-token"
DEFAULT_MEMBERS = ("alice", "bob", "carol", "dave")
DEFAULT_CHANNELS = ("general", "lama", "lama-2")


@dataclass
class RecordedError:
    kind: str  # unknown_route, invalid_body, late_response, double_response, ...
    message: str
    call: RestCall | None = None

    def __str__(self) -> str:
        return f"[{self.kind}] {self.message}"


class FakeDiscord(ActivityDriver):
    """Discord on 127.0.0.1: one guild, its members and channels, DMs, commands, interactions.

    Construct, ``await start()``, point discord.py at ``base_url`` (see hook.py), drive it with
    the :class:`Driver` methods, ``await stop()``. Anything a real Discord would refuse is
    answered like Discord does *and* recorded in ``errors``; fixtures fail the test on them.
    """

    def __init__(
        self, *, members: tuple[str, ...] = DEFAULT_MEMBERS,
        channels: tuple[str, ...] = DEFAULT_CHANNELS, guild_name: str = "LAMA Club",
        clock: Clock | None = None, spec: OpenApiSpec | None = None, validate: bool = True,
    ) -> None:
        self.spec = spec or load_spec()
        # False (benchmarks only): skip checking request bodies against the OpenAPI document
        # and Discord's limits, which costs the fake far more CPU than answering does.
        self.validate = validate
        self.clock = clock or Clock()
        self.snowflakes = Snowflakes()
        self.response_deadline = 3.0  # seconds (fake clock) to the first interaction answer
        self.wait_timeout = 5.0  # real seconds the driver waits for the bot
        self.errors: list[RecordedError] = []
        self.calls: list[RestCall] = []
        self.faults: list[dict[str, Any]] = []
        self.ratelimits = RateLimits()  # Discord's global and per-channel limits
        self.bad_tokens = {BAD_TOKEN}
        self.privileged_intents = 0  # the privileged intents the "developer portal" enabled
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.uploads: dict[int, FakeAttachment] = {}
        self.application_emojis: dict[int, dict[str, Any]] = {}  # emojis.py
        self.activities = Activities()  # instances, OAuth2 codes and tokens (activities.py)
        # enforce_nonce: (channel, nonce) -> (time.monotonic() it was created, the message,
        # its JSON as first posted: what a repeat gets back)
        self.nonces: dict[tuple[int, str], tuple[float, FakeMessage, dict[str, Any]]] = {}
        self.pings: list[Pings] = []  # what each message body resolved (pings.py)
        self.gateway = Gateway(self)
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

        self.shard_count = 1  # the shards GET /gateway/bot advises
        self.application_id = self.snowflakes.next()
        self.bot = FakeUser(self.application_id, "LamaBot", bot=True)
        self.owner = FakeUser(self.snowflakes.next(), "owner")
        self.users_by_id: dict[int, FakeUser] = {}
        self.users: list[FakeUser] = []  # the members who play (not the owner, not the bot)
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.guild = self._new_guild(guild_name, channels, self.snowflakes.next())
        for name in members:
            self.add_user(name)

    # ---- lifecycle ----------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self.port is not None, "start() the fake first"
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return gateway_url_for(self.base_url)

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._file)
        app.router.add_post("/api/v10/oauth2/token", self._oauth_token)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def _rest(self, request: web.Request) -> web.Response:
        return await dispatch(self, request)

    async def _oauth_token(self, request: web.Request) -> web.Response:
        return await oauth_token(self, request)

    async def _unknown(self, request: web.Request) -> web.Response:
        self.record_error("unknown_route", f"{request.method} {request.path} (outside /api/v10)")
        return web.Response(status=404)

    async def _file(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        attachments = [a for c in self.channels.values() for m in c.messages
                       for a in m.attachments] + list(self.uploads.values())
        for attachment in attachments:
            if attachment.id == wanted:
                kind = attachment.content_type or "application/octet-stream"
                return web.Response(body=attachment.data, content_type=kind)
        return web.Response(status=404)

    # ---- errors -------------------------------------------------------------------------
    def record_error(self, kind: str, message: str, call: RestCall | None = None) -> None:
        self.errors.append(RecordedError(kind, message, call))

    def take_errors(self, kind: str | None = None) -> list[RecordedError]:
        """Remove and return recorded errors (of one kind), for tests that provoke them."""
        taken = [e for e in self.errors if kind is None or e.kind == kind]
        self.errors = [e for e in self.errors if e not in taken]
        return taken

    def assert_no_errors(self) -> None:
        if self.errors:
            lines = "\n  ".join(str(e) for e in self.errors)
            count = len(self.errors)
            raise AssertionError(f"the loopback Discord saw {count} error(s):\n  {lines}")

    # ---- users, channels, permissions ---------------------------------------------------
    def token_ok(self, token: str | None) -> bool:
        return bool(token) and token not in self.bad_tokens

    def _join(self, user: FakeUser, guild: FakeGuild) -> None:
        self.users_by_id[user.id] = user
        guild.members[user.id] = user

    def add_user(
        self, name: str, *, locale: str = "en-US", dms_open: bool = True,
        display_name: str | None = None,
    ) -> FakeUser:
        """A new member of the first guild (``fake.guild``); ``display_name`` is their global
        name (else ``name``, title-cased)."""
        user = FakeUser(self.snowflakes.next(), name, locale=locale, dms_open=dms_open,
                        global_name=display_name)
        self._join(user, self.guild)
        self.users.append(user)
        return user

    # ---- guilds and shards --------------------------------------------------------------
    def _new_guild(self, name: str, channels: tuple[str, ...], guild_id: int) -> FakeGuild:
        guild = FakeGuild(guild_id, name, self.owner)
        guild.roles[guild_id] = FakeRole(guild_id, "@everyone", EVERYONE_PERMISSIONS)
        bot_role = FakeRole(self.snowflakes.next(), "LamaBot", BOT_ROLE_PERMISSIONS, 1, True)
        guild.roles[bot_role.id] = bot_role
        self.bot.role_ids.append(bot_role.id)
        for user in (self.owner, self.bot):
            self._join(user, guild)
        for position, channel_name in enumerate(channels):
            channel = FakeChannel(self.snowflakes.next(), channel_name, 0, guild_id, position)
            guild.channels[channel.id] = self.channels[channel.id] = channel
        self.guilds[guild_id] = guild
        return guild

    async def add_guild(
        self, name: str, *, channels: tuple[str, ...] = ("lama",),
        shard: tuple[int, int] | None = None, members: list[FakeUser] | None = None,
    ) -> FakeGuild:
        """Another server with the bot in it: ``channels``, the owner, the bot and ``members``
        (every user so far, by default). ``shard=(number, total)`` picks an id that shard
        ``number`` of ``total`` receives. Sessions that receive it get GUILD_CREATE, as when
        the bot is added to a server."""
        guild_id = (self.snowflakes.next() if shard is None
                    else self.snowflakes.next_on_shard(*shard))
        guild = self._new_guild(name, channels, guild_id)
        for user in self.users if members is None else members:
            self._join(user, guild)
        for session in self.gateway.live_sessions():
            if session.intents & INTENT_GUILDS and session.receives(guild_id):
                await session.dispatch("GUILD_CREATE", guild.create_event())
        return guild

    def guild_of(self, channel: FakeChannel) -> FakeGuild:
        """The guild a (guild, thread) channel belongs to."""
        assert channel.guild_id is not None, f"channel {channel.id} is a DM"
        return self.guilds[channel.guild_id]

    def shard_of(self, guild: FakeGuild, shard_count: int | None = None) -> int:
        """The shard that receives ``guild`` (with ``shard_count`` shards, else the advised)."""
        return shard_of(guild.id, shard_count or self.shard_count)

    def add_users(self, count: int, prefix: str = "player") -> list[FakeUser]:
        start = len(self.users)
        return [self.add_user(f"{prefix}{start + i + 1}") for i in range(count)]

    def user(self, name: str) -> FakeUser:
        for user in self.users_by_id.values():
            if user.name == name:
                return user
        raise LookupError(f"no user {name!r}")

    def channel(self, name: str) -> FakeChannel:
        return self.guild.channel(name)

    def channel_or_404(self, channel_id: str | int) -> FakeChannel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise unknown("Channel", 10003)
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.snowflakes.next(), None, 1, recipient=user)
            self.dm_channels[user.id] = self.channels[channel.id] = channel
        return channel

    async def grant(
        self, user: FakeUser, guild: FakeGuild | None = None, **permissions: bool
    ) -> FakeRole:
        """Give ``user`` guild permissions (e.g. ``manage_guild=True``) in ``guild`` (the
        first by default) through a role of their own; they show in the interaction's
        ``member.permissions``."""
        guild = guild or self.guild
        role = FakeRole(self.snowflakes.next(), f"{user.name}-role",
                        discord.Permissions(**permissions).value, position=2)
        guild.roles[role.id] = role
        user.role_ids.append(role.id)
        await self.gateway.broadcast(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_json()},
            intent=INTENT_GUILDS, guild_id=guild.id)
        return role

    def add_role(
        self, name: str, guild: FakeGuild | None = None, *, mentionable: bool = False
    ) -> FakeRole:
        """A role nobody has yet (before the bot connects: its GUILD_CREATE lists it)."""
        guild = guild or self.guild
        role = FakeRole(self.snowflakes.next(), name, 0, position=1, mentionable=mentionable)
        guild.roles[role.id] = role
        return role

    def pings_of(self, message: FakeMessage) -> list[Pings]:
        """What the bodies that made and edited `message` resolved, in order."""
        return [p for p in self.pings if p.message_id == message.id]

    # ---- faults -------------------------------------------------------------------------
    def close_dms(self, user: FakeUser) -> None:
        """Messages to ``user``'s DM channel get 403 code 50007, as with DMs turned off."""
        user.dms_open = False

    def rate_limit_next(self, route: str, *, retry_after: float = 0.05, is_global: bool = False,
                        times: int = 1, from_discord: bool = True,
                        message_id: int | None = None) -> None:
        """The next ``times`` calls of ``route`` (e.g. "POST /channels/{channel_id}/messages")
        get a 429 with ``retry_after`` and Discord's rate-limit headers; ``from_discord``
        False: a proxy's 429 instead (no ``Via`` header, a text body). ``message_id``: only
        calls about that message (an edit of it), so a test decides which of two edits fails."""
        self.faults.append({"route": route, "status": 429, "retry_after": retry_after,
                            "global": is_global, "times": times, "from_discord": from_discord,
                            "message_id": message_id})

    def fail_next(self, route: str, *, status: int = 500, times: int = 1,
                  after_work: bool = False, message_id: int | None = None) -> None:
        """The next ``times`` calls of ``route`` get ``status`` (``DROPPED``: the connection
        closes with no reply). ``after_work``: Discord does the work first and only its answer
        is lost (an edge proxy's 502 or a reset after Discord took an interaction's answer), so
        a second answer finds it done (a callback: 400, 40060). ``message_id``: only calls
        about that message, as for `rate_limit_next`."""
        self.faults.append({"route": route, "status": status, "times": times,
                            "after_work": after_work, "message_id": message_id})

    def rate_limit_for(self, route: str, seconds: float, *, retry_after: float = 0.05,
                       channel_id: int | None = None, message_id: int | None = None,
                       from_discord: bool = True) -> None:
        """A storm: every call of ``route`` in the next ``seconds`` (real time) gets a 429,
        as `rate_limit_next` gives one; ``channel_id``, ``message_id``: only calls in that
        channel, about that message."""
        self.faults.append({"route": route, "status": 429, "retry_after": retry_after,
                            "global": False, "times": 1, "from_discord": from_discord,
                            "channel_id": channel_id, "message_id": message_id,
                            "until": time.monotonic() + seconds})

    def storming(self) -> bool:
        """Whether a storm of `rate_limit_for` still blows."""
        return any(f.get("until", 0) > time.monotonic() for f in self.faults)

    def calm(self) -> None:
        """Every storm of `rate_limit_for` ends now."""
        self.faults = [f for f in self.faults if "until" not in f]

    def hold_next(self, route: str, *, after_work: bool = False) -> HeldCall:
        """The next call of ``route`` waits until the test releases it: before Discord does
        its work, or (``after_work``) after it and before the answer goes back. A test kills
        the bot while it waits: a crash at exactly that moment (records.HeldCall)."""
        held = HeldCall(route, after_work)
        self.faults.append({"route": route, "held": held, "times": 1, "message_id": None})
        return held

    def forget_nonces(self) -> None:
        """Discord's nonce window (minutes) passes: a repeated nonce posts a message anew."""
        self.nonces.clear()

    def take_fault(self, call: RestCall) -> dict[str, Any] | None:
        now = time.monotonic()
        self.faults = [f for f in self.faults if f.get("until", now + 1) > now]
        for fault in self.faults:
            if any(fault.get(key) is not None and call.params.get(key) != str(fault[key])
                   for key in ("channel_id", "message_id")):
                continue
            if fault["route"] == call.route:
                if "until" not in fault:
                    fault["times"] -= 1
                    if fault["times"] <= 0:
                        self.faults.remove(fault)
                return fault
        return None

    async def deny_bot(self, channel: FakeChannel, *permissions: str) -> None:
        """Take ``permissions`` (e.g. "send_messages") from the bot in ``channel`` by a member
        overwrite, announced with CHANNEL_UPDATE; sending there then gets 403 code 50013."""
        kind, allow, deny = channel.overwrites.get(self.bot.id, (1, 0, 0))
        deny |= discord.Permissions(**dict.fromkeys(permissions, True)).value
        channel.overwrites[self.bot.id] = (kind, allow & ~deny, deny)
        await self.gateway.broadcast("CHANNEL_UPDATE", channel.to_json(), intent=INTENT_GUILDS,
                                     guild_id=channel.guild_id)

    async def drop_gateway(self, *, resumable: bool = True, abrupt: bool = False) -> None:
        await self.gateway.drop(resumable=resumable, abrupt=abrupt)
