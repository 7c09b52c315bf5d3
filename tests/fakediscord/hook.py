"""The one hook that points an unchanged discord.py at the loopback Discord.

Importable without pytest: the production bot calls :func:`point_discord_at_env` at start-up,
so a subprocess started with ``LAMABOT_FAKE_DISCORD_URL=http://127.0.0.1:PORT`` talks to the
stand-in instead of discord.com.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import discord.gateway
import discord.http
import yarl

ENV_VAR = "LAMABOT_FAKE_DISCORD_URL"
GATEWAY_PATH = "/gateway"

# The real values, so a test process can put everything back after a fake has gone.
_REAL_REST_BASE: str = discord.http.Route.BASE
_REAL_GATEWAY: yarl.URL = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


def gateway_url_for(base_url: str) -> str:
    """The websocket URL of the fake whose HTTP root is ``base_url``."""
    url = yarl.URL(base_url.rstrip("/"))
    scheme = "wss" if url.scheme == "https" else "ws"
    return str(url.with_scheme(scheme).with_path(GATEWAY_PATH))


def point_discord_at(base_url: str) -> None:
    """Send all of discord.py's REST and gateway traffic to ``base_url`` (e.g. http://127.0.0.1:PORT).

    ``Route.BASE`` is read each time a Route is built, so webhooks and interaction callbacks
    follow it too. A plain Client connects to ``DEFAULT_GATEWAY``; an AutoShardedBot asks
    ``GET /gateway/bot``, which the fake answers with the same websocket URL.
    """
    base = base_url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url_for(base))


def point_discord_at_env(environ: Mapping[str, str] | None = None) -> str | None:
    """Apply :func:`point_discord_at` if ``LAMABOT_FAKE_DISCORD_URL`` is set; return that URL."""
    url = (os.environ if environ is None else environ).get(ENV_VAR)
    if url:
        point_discord_at(url)
    return url or None


def restore_real_discord() -> None:
    """Undo :func:`point_discord_at` (used by test fixtures on teardown)."""
    discord.http.Route.BASE = _REAL_REST_BASE
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = _REAL_GATEWAY
