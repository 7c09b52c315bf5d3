"""LamaBot's settings: read from the environment (.env) once, at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from hosting.shards import ShardPlan

# Names the file bot.py reads settings from instead of `.env`; set empty, no file is read.
ENV_FILE_VARIABLE = "LAMABOT_ENV_FILE"


@dataclass(frozen=True)
class Settings:
    token: str = ""
    database_path: Path = Path("data/lama.sqlite3")
    database_url: str = ""  # postgresql://user:password@host/name instead; empty: SQLite
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # Where Discord is: None for discord.com. A shared rate-limit REST proxy (nirn-proxy,
    # twilight-http-proxy) in production, the loopback Discord in tests.
    discord_api_base_url: str | None = None  # e.g. http://proxy:8080/api/v10
    discord_gateway_url: str | None = None  # e.g. ws://gateway-proxy:7878
    render_delay: float = 0.3  # seconds to gather a burst of moves into one table edit
    rest_per_second: int = 30  # the bot's rate-limited calls a second (Discord: 50 per token)
    channel_window: float = 5.0  # Discord's window of 5 message creates (edits) per channel
    web_port: int | None = None  # serve the web pages on this port; None: no web pages
    web_host: str = "0.0.0.0"  # every interface: the pages are meant to be reached
    web_public_url: str | None = None  # where people reach the pages, for links in answers
    # The application's OAuth2 client secret: with the web pages served and a public URL, it
    # turns on the Activity (LAMA inside Discord, docs/activity.md). Never sent to a browser.
    discord_client_secret: str | None = None
    # Who may frame the Activity's page besides Discord (its CSP frame-ancestors): none in
    # production; a test's host page standing in for the Discord client (not read from .env).
    activity_frame_ancestors: tuple[str, ...] = ()
    # Once connected, keep what start-up built out of the garbage collector's full passes
    # (`gc.freeze`) and collect young objects less often (bot.py on_ready); on for the bot
    # process (from_env), off for bots built inside tests (the test process's collector).
    freeze_startup: bool = False

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)

        def optional_int(name: str) -> int | None:
            value = env.get(name, "").strip()
            return int(value) if value else None

        shard_ids = env.get("SHARD_IDS", "").strip()
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip(),
            database_path=Path(env.get("DATABASE_PATH", "").strip() or "data/lama.sqlite3"),
            database_url=env.get("DATABASE_URL", "").strip(),
            dev_guild_id=optional_int("DEV_GUILD_ID"),
            log_level=env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            shard_count=optional_int("SHARD_COUNT"),
            shard_ids=tuple(int(s) for s in shard_ids.split(",")) if shard_ids else None,
            discord_api_base_url=env.get("DISCORD_API_BASE_URL", "").strip().rstrip("/") or None,
            discord_gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
            render_delay=float(env.get("RENDER_DELAY", "").strip() or 0.3),
            rest_per_second=int(env.get("REST_CALLS_PER_SECOND", "").strip() or 30),
            channel_window=float(env.get("DISCORD_CHANNEL_WINDOW", "").strip() or 5.0),
            web_port=optional_int("WEB_PORT"),
            web_host=env.get("WEB_HOST", "").strip() or "0.0.0.0",
            web_public_url=env.get("WEB_PUBLIC_URL", "").strip() or None,
            discord_client_secret=env.get("DISCORD_CLIENT_SECRET", "").strip() or None,
            freeze_startup=True,
        )

    def shard_problem(self) -> str | None:
        """Why this process must not run its shards: processes share PostgreSQL, not SQLite."""
        return self.shards.problem(shared_database=bool(self.database_url))

    @property
    def activity_enabled(self) -> bool:
        """The Activity runs only where Discord's proxy can reach it (the web pages served,
        at a public URL) and the bot can sign players in (the client secret). Otherwise the
        bot is exactly what it is without it: no button, no entry point, no routes."""
        return bool(self.web_port is not None and self.web_public_url
                    and self.discord_client_secret)

    @property
    def shards(self) -> ShardPlan:
        return ShardPlan(self.shard_count, self.shard_ids)
