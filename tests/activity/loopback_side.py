"""The Activity against the real bot: Discord's servers are the loopback Discord, the bot is
bot.py itself (a process that a test may kill and start again), and its web site is reached
through the stand-in for Discord's proxy, as a player's Discord client reaches it."""

from __future__ import annotations

import socket
import sys
from contextlib import AsyncExitStack
from typing import Any

from loopback import FakeDiscord
from loopback.model import FakeUser
from loopback.running import BOT_TOKEN, BotProcess, run_bot_process
from tests.activity.discord_host import DiscordUser, Launch, authenticated
from tests.support.code import ROOT
from tests.support.crash import wait_disconnected

PUBLIC_URL = "https://lama.example.org"  # what the Developer Portal maps the Activity to


def as_user(user: FakeUser) -> DiscordUser:
    return DiscordUser(str(user.id), user.name, user.global_name or user.name.title())


def launch(fake: FakeDiscord, user: FakeUser, channel: str) -> Launch:
    """`user` opens the Activity from the App Launcher in `channel` (of the fake's server)."""
    instance = fake.launch_activity(user, channel)
    place = instance.channel
    return Launch(str(fake.application_id), instance.id, str(place.guild_id), str(place.id))


class LoopbackSide:
    """What Discord's servers answer the client for a page: codes, tokens, participants."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def _fake_user(self, user: DiscordUser) -> FakeUser:
        return self.fake.users_by_id[int(user.id)]

    async def authorize(self, user: DiscordUser, args: dict[str, Any]) -> str:
        return self.fake.authorize(self._fake_user(user), tuple(args.get("scope", ())))

    async def authenticate(self, user: DiscordUser, access_token: str) -> dict[str, Any]:
        grant = self.fake.activities.tokens.get(access_token)
        if grant is None or grant.user.id != int(user.id):
            raise ValueError("Discord does not know this access token for this user")
        return authenticated(user, access_token, str(self.fake.application_id))

    async def participants(self, where: Launch) -> list[DiscordUser]:
        instance = self.fake.activities.instances[where.instance_id]
        return [as_user(self.fake.users_by_id[u]) for u in instance.users]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class BotRun:
    """bot.py with its web site and the Activity on, on a port that stays the same when it
    is killed and started again (the public URL does not move when the bot restarts)."""

    def __init__(self, fake: FakeDiscord, database: str) -> None:
        self.fake = fake
        self.port = free_port()
        self.env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_PATH": database, "RENDER_DELAY": "0",
                    "WEB_PORT": str(self.port), "WEB_HOST": "127.0.0.1",
                    "WEB_PUBLIC_URL": PUBLIC_URL,
                    "DISCORD_CLIENT_SECRET": fake.activities.client_secret}
        self._stack: AsyncExitStack | None = None
        self.process: BotProcess | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._stack = AsyncExitStack()
        self.process = await self._stack.enter_async_context(
            run_bot_process(self.fake, [sys.executable, "bot.py"], env=self.env, cwd=ROOT))

    async def kill(self) -> None:
        """SIGKILL, as a crash or `kill -9`: sockets drop without a goodbye."""
        assert self.process is not None and self._stack is not None
        self.process.kill()
        await self._stack.aclose()
        await wait_disconnected(self.fake)

    async def stop(self) -> None:
        if self._stack is not None:
            await self._stack.aclose()
