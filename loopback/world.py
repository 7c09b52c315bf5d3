"""The fake as its parts see it: `World`, what the REST handlers, the driver and the results
read and change of `FakeDiscord` (server.py).

The handlers name the fake by this protocol, never by its server, so the server can import
them and nothing imports it back (tests/test_structure.py checks there is no cycle, the type
checker's imports included). `FakeDiscord` is the one world; what the driver needs beyond it
is `driver.DriverHost`, what the gateway needs is `gateway.GatewayHost` (which this extends).
"""

from __future__ import annotations

from typing import Any, Protocol

from .activity_state import Activities
from .gateway import Gateway, GatewayHost
from .ids import Clock, Snowflakes
from .model import FakeMessage, FakeUser
from .places import FakeChannel, FakeGuild
from .ratelimits import RateLimits
from .records import InteractionRecord, Pings, RestCall
from .spec import OpenApiSpec


class World(GatewayHost, Protocol):
    """Discord's state as the fake keeps it, its checks and its records."""

    # ---- the checks a request meets ------------------------------------------------------
    spec: OpenApiSpec
    validate: bool  # False (benchmarks): bodies are not checked against the spec
    clock: Clock
    ratelimits: RateLimits
    response_deadline: float  # seconds (fake clock) to an interaction's first answer
    wait_timeout: float  # real seconds the test's side waits for the bot

    # ---- the world -----------------------------------------------------------------------
    snowflakes: Snowflakes
    shard_count: int
    owner: FakeUser
    users_by_id: dict[int, FakeUser]
    channels: dict[int, FakeChannel]
    commands: dict[int | None, list[dict[str, Any]]]  # scope (guild id, None: global) → JSON
    application_emojis: dict[int, dict[str, Any]]
    activities: Activities  # the application's Activities: instances, OAuth2 codes and tokens
    nonces: dict[tuple[int, str], tuple[float, FakeMessage, dict[str, Any]]]
    gateway: Gateway

    # ---- what was asked and answered -----------------------------------------------------
    calls: list[RestCall]
    interactions_by_token: dict[str, InteractionRecord]
    pings: list[Pings]

    @property
    def base_url(self) -> str: ...

    def channel_or_404(self, channel_id: str | int) -> FakeChannel: ...

    def dm_channel(self, user: FakeUser) -> FakeChannel: ...

    def guild_of(self, channel: FakeChannel) -> FakeGuild: ...

    def take_fault(self, call: RestCall) -> dict[str, Any] | None: ...
