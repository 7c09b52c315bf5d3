"""The one hook that points an unchanged discord.py at the loopback Discord.

Importable without pytest. The bot needs none of it: its own settings DISCORD_API_BASE_URL and
DISCORD_GATEWAY_URL (bot.py) point it anywhere, and :func:`discord_env_for` gives their values
for a fake. A plain discord.py client (the fake's own tests) uses :func:`point_discord_at`, or
:func:`point_discord_at_env` in a subprocess started with those two variables.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import discord.gateway
import discord.http
import yarl

API_BASE_ENV, GATEWAY_ENV = "DISCORD_API_BASE_URL", "DISCORD_GATEWAY_URL"  # the bot's settings
API_PATH = "/api/v10"
GATEWAY_PATH = "/gateway"

# The real values, so a test process can put everything back after a fake has gone.
_REAL_REST_BASE: str = discord.http.Route.BASE
_REAL_GATEWAY: yarl.URL = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


def gateway_url_for(base_url: str) -> str:
    """The websocket URL of the fake whose HTTP root is ``base_url``."""
    url = yarl.URL(base_url.rstrip("/"))
    scheme = "wss" if url.scheme == "https" else "ws"
    return str(url.with_scheme(scheme).with_path(GATEWAY_PATH))


def discord_env_for(base_url: str) -> dict[str, str]:
    """The bot's settings (environment variables) that point it at the fake at ``base_url``."""
    return {
        API_BASE_ENV: base_url.rstrip("/") + API_PATH,
        GATEWAY_ENV: gateway_url_for(base_url),
    }


def point_discord_at(base_url: str) -> None:
    """Send all of discord.py's REST and gateway traffic to ``base_url`` (e.g. http://127.0.0.1:PORT).

    ``Route.BASE`` is read each time a Route is built, so webhooks and interaction callbacks
    follow it too. A plain Client connects to ``DEFAULT_GATEWAY``; an AutoShardedBot asks
    ``GET /gateway/bot``, which the fake answers with the same websocket URL.
    """
    env = discord_env_for(base_url)
    discord.http.Route.BASE = env[API_BASE_ENV]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(env[GATEWAY_ENV])


def point_discord_at_env(environ: Mapping[str, str] | None = None) -> str | None:
    """Follow ``DISCORD_API_BASE_URL`` and ``DISCORD_GATEWAY_URL`` as the bot does; return
    the REST base, or None if it is not set."""
    env = os.environ if environ is None else environ
    api_base, gateway = env.get(API_BASE_ENV), env.get(GATEWAY_ENV)
    if api_base:
        discord.http.Route.BASE = api_base
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return api_base or None


def restore_real_discord() -> None:
    """Undo :func:`point_discord_at` (used by test fixtures on teardown)."""
    discord.http.Route.BASE = _REAL_REST_BASE
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _REAL_GATEWAY
