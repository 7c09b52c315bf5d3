"""The gateway websocket: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME, drops, shards.

Every dispatch is logged per session with its sequence number, so a client that resumes after a
drop is replayed exactly what it missed (as Discord does) and an interaction created while the
bot was away reaches it once it is back.

Sharding as Discord does it: a session IDENTIFYs with ``shard: [number, total]`` (none: [0, 1])
and receives the events of the guilds with ``(guild_id >> 22) % total == number``; events
outside any guild (DMs, DM interactions) go to shard 0 only. Each session applies the formula
with its own total, so mismatched totals duplicate or lose events, as on Discord.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from aiohttp import WSMsgType, web

from .model import FakeUser
from .places import FakeGuild
from .records import RestCall

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0, 1, 2, 6, 7, 9, 10, 11,
)
HEARTBEAT_INTERVAL_MS = 41_250
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
CLOSE_AUTHENTICATION_FAILED = 4004
CLOSE_INVALID_SHARD = 4010
CLOSE_DISALLOWED_INTENTS = 4014
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
CLOSE_UNKNOWN_ERROR = 4000


class GatewayHost(Protocol):
    """What the gateway needs of the fake (`FakeDiscord`; `world.World` extends it)."""

    bot: FakeUser
    application_id: int
    guilds: dict[int, FakeGuild]
    privileged_intents: int  # the privileged intents the "developer portal" enabled

    @property
    def ws_url(self) -> str: ...

    def token_ok(self, token: str | None) -> bool: ...

    def record_error(self, kind: str, message: str, call: RestCall | None = None) -> None: ...


class Connection:
    """One websocket; compresses as the client asked (zlib-stream), else plain TEXT frames."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request
        # discord.py asks zstd-stream only when zstandard is importable; we cannot produce it
        # without that package, and a TEXT frame is read as plain JSON, so fall back to that.
        wants_zlib = request.query.get("compress") == "zlib-stream"
        self._zlib = zlib.compressobj() if wants_zlib else None
        self._lock = asyncio.Lock()
        self.session: Session | None = None

    async def send(self, payload: dict[str, Any]) -> None:
        # orjson, as discord.py reads it: the stdlib's encoder was a seventh of a benchmark
        # driver's CPU (every dispatch, the bots' competitor for the same cores)
        raw = orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
        async with self._lock:
            if self.ws.closed:
                return
            if self._zlib is None:
                await self.ws.send_str(raw.decode())
            else:
                data = self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)


@dataclass
class Session:
    id: str
    token: str
    intents: int
    seq: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    connection: Connection | None = None
    ended: bool = False
    shard: tuple[int, int] = (0, 1)  # (number, total) from IDENTIFY

    def receives(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id`` (None: a DM)."""
        number, total = self.shard
        return number == (shard_of(guild_id, total) if guild_id is not None else 0)

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.log.append(payload)
        if self.connection is not None:
            await self.connection.send(payload)
        return self.seq


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's sharding formula: the shard that receives a guild's events."""
    return (guild_id >> 22) % shard_count


def parse_shard(value: Any) -> tuple[int, int] | None:
    """IDENTIFY's ``shard`` field as (number, total), or None if Discord would refuse it."""
    if value is None:
        return (0, 1)
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return None
    number, total = value
    return (number, total) if total >= 1 and 0 <= number < total else None


class Gateway:
    def __init__(self, fake: GatewayHost) -> None:
        self.fake = fake
        self.sessions: list[Session] = []
        self.connections: set[Connection] = set()
        self.identifies = 0
        self.resumes = 0
        self._changed = asyncio.Condition()

    # ---- what the rest of the fake uses -------------------------------------------------
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions if not s.ended]

    def newest_session(self, shard_id: int | None = None) -> Session | None:
        """The newest live session (of shard ``shard_id``, when given)."""
        live = [s for s in self.live_sessions() if shard_id is None or s.shard[0] == shard_id]
        return live[-1] if live else None

    def route(self, guild_id: int | None) -> Session | None:
        """The session an interaction in ``guild_id`` (None: in a DM) is sent to: the newest
        live one whose shard receives that guild."""
        routed = [s for s in self.live_sessions() if s.receives(guild_id)]
        return routed[-1] if routed else None

    def is_connected(self, shard_id: int | None = None) -> bool:
        session = self.newest_session(shard_id)
        return session is not None and session.connection is not None

    async def wait_connected(self, timeout: float = 5.0, *, shard_id: int | None = None) -> None:
        """Until the newest session (of shard ``shard_id``) has a live connection."""
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: self.is_connected(shard_id)), timeout)

    async def wait_routed(self, guild_id: int | None, timeout: float = 5.0) -> Session:
        """The session an interaction in ``guild_id`` goes to, waiting for one to exist."""
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: self.route(guild_id) is not None), timeout)
        session = self.route(guild_id)
        assert session is not None
        return session

    async def broadcast(
        self, event: str, data: dict[str, Any], *, intent: int, guild_id: int | None
    ) -> None:
        """An event of guild ``guild_id`` (None: a DM) for every session whose shard receives
        it and whose intents ask for it."""
        for session in self.live_sessions():
            if session.intents & intent and session.receives(guild_id):
                await session.dispatch(event, data)

    async def drop(self, *, resumable: bool = True, abrupt: bool = False) -> None:
        """Cut every connection, as a network blip or a Discord restart does.

        ``resumable=False`` also forgets the sessions, so the client's RESUME is refused with
        INVALID_SESSION and it must IDENTIFY again. ``abrupt`` closes the TCP connection without
        a close frame instead of closing with code 4000.
        """
        for connection in list(self.connections):
            if connection.session is not None and not resumable:
                connection.session.ended = True
            if connection.session is not None:
                connection.session.connection = None
            if abrupt:
                transport = connection.request.transport
                if transport is not None:
                    transport.abort()
            else:
                await connection.ws.close(code=CLOSE_UNKNOWN_ERROR, message=b"dropped by test")
        await self._notify()

    async def close_all(self) -> None:
        for connection in list(self.connections):
            await connection.ws.close(code=1001, message=b"fake discord shutting down")

    # ---- the websocket ------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, request)
        self.connections.add(connection)
        try:
            await connection.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._on_payload(connection, orjson.loads(message.data))
                elif message.type is WSMsgType.BINARY:
                    self.fake.record_error("gateway", "client sent a binary frame")
        finally:
            self.connections.discard(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                # A client that closes with 1000/1001 ends its session (Discord forgets it).
                if ws.close_code in (1000, 1001):
                    session.ended = True
            await self._notify()
        return ws

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _on_payload(self, connection: Connection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d") or {}
        if op == HEARTBEAT:
            await connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif op in (3, 4, 8):  # presence, voice state, member requests: accepted, ignored
            pass
        else:
            self.fake.record_error("gateway", f"unexpected gateway op {op}: {payload}")

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if not self.fake.token_ok(data.get("token")):
            await connection.ws.close(
                code=CLOSE_AUTHENTICATION_FAILED, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.fake.privileged_intents:
            # As Discord does when the developer portal has not enabled the intent.
            await connection.ws.close(code=CLOSE_DISALLOWED_INTENTS, message=b"Disallowed intents")
            return
        shard = parse_shard(data.get("shard"))
        if shard is None:
            await connection.ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
            return
        self.identifies += 1
        session = Session(secrets.token_hex(16), data["token"], intents, shard=shard)
        self.sessions.append(session)
        session.connection = connection
        connection.session = session
        fake = self.fake
        guilds = [g for g in fake.guilds.values() if session.receives(g.id)]
        ready = {
            "v": 10, "user": {**fake.bot.to_json(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id, "resume_gateway_url": fake.ws_url,
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [],
            "guild_join_requests": [], "geo_ordered_rtc_regions": [], "session_type": "normal",
            "_trace": ["fakediscord"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await session.dispatch("READY", ready)
        if session.intents & INTENT_GUILDS:
            for guild in guilds:
                await session.dispatch("GUILD_CREATE", guild.create_event())
        await self._notify()

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = next((s for s in self.live_sessions() if s.id == data.get("session_id")), None)
        if session is None or session.token != data.get("token"):
            await connection.send({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        if session.connection is not None and session.connection is not connection:
            await session.connection.ws.close(code=CLOSE_UNKNOWN_ERROR)
        session.connection = connection
        connection.session = session
        seen = data.get("seq") or 0
        for payload in session.log:
            if payload["s"] > seen:
                await connection.send(payload)
        await session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        await self._notify()
