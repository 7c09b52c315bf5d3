"""Running a discord.py bot against the loopback Discord: in-process or as a subprocess.

No pytest here: benchmarks use it as tests do. A bot started by `run_bot_process` sees only the
environment it is given (`bot_environment`): never the developer's `.env` or shell settings.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import discord

from .hook import discord_env_for, point_discord_at
from .server import FakeDiscord

BOT_TOKEN = "fake-bot-token"
# settings.ENV_FILE_VARIABLE: set empty, bot.py reads no .env
ENV_FILE_VARIABLE = "LAMABOT_ENV_FILE"
# What a child process needs of the parent's environment to run at all; nothing that is a
# setting of the bot (DATABASE_URL, WEB_*, SHARD_*, DEV_GUILD_ID...) comes along.
BOT_SETTING_PREFIXES = ("DISCORD_", "DATABASE_", "WEB_", "SHARD_", "DEV_GUILD_ID", "LOG_LEVEL",
                        "RENDER_DELAY", "REST_CALLS_PER_SECOND")
_PASSED_THROUGH = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", "VIRTUAL_ENV")


def bot_environment(settings: Mapping[str, str] | None = None) -> dict[str, str]:
    """The whole environment of a bot process a test or benchmark starts: the few variables
    a process needs, no `.env` file, and exactly the bot settings given."""
    env = {name: os.environ[name] for name in _PASSED_THROUGH if name in os.environ}
    return {**env, ENV_FILE_VARIABLE: "", "PYTHONUNBUFFERED": "1", **(settings or {})}


async def _wait_ready(bot: discord.Client, task: asyncio.Task, timeout: float) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not bot.is_ready():
        if task.done():
            task.result()  # raises what start() raised (LoginFailure, ...)
            raise RuntimeError("bot.start() returned before the bot was ready")
        if loop.time() > deadline:
            raise TimeoutError(f"bot not ready within {timeout} s")
        await asyncio.sleep(0.005)


@asynccontextmanager
async def run_bot(
    fake: FakeDiscord, bot: discord.Client, token: str = BOT_TOKEN, *,
    sync_commands: bool = True, timeout: float = 30.0,
) -> AsyncIterator[discord.Client]:
    """Run ``bot`` in-process against ``fake`` until the block ends, then close it cleanly.

    Waits for ``on_ready`` (build the bot with ``guild_ready_timeout=0.05`` or ready takes 2 s)
    and, with ``sync_commands``, syncs ``bot.tree`` globally so the driver knows the commands.
    ``timeout``: LamaBot is ready in ~0.25 s on a quiet machine, but a test process's first
    start (imports, the spec's first validations) took over 5 s with both cores busy.
    """
    point_discord_at(fake.base_url)
    task = asyncio.create_task(bot.start(token), name=f"run_bot:{type(bot).__name__}")
    try:
        await _wait_ready(bot, task, timeout)
        tree = getattr(bot, "tree", None)
        if sync_commands and tree is not None:
            await tree.sync()
        yield bot
    finally:
        await bot.close()
        with suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout)


@dataclass
class BotProcess:
    process: asyncio.subprocess.Process
    log_path: Path

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL, as a crash or ``kill -9`` would."""
        if self.process.returncode is None:
            self.process.kill()


@asynccontextmanager
async def run_bot_process(
    fake: FakeDiscord, args: Sequence[str], *, env: dict[str, str] | None = None,
    cwd: str | Path | None = None, wait_connected: bool = True, timeout: float = 60.0,
    shard_id: int | None = None,
) -> AsyncIterator[BotProcess]:
    """Start ``args`` (e.g. ``[sys.executable, "bot.py"]``) with ``bot_environment``: the
    settings in ``env`` and the fake's DISCORD_API_BASE_URL and DISCORD_GATEWAY_URL.
    Optionally wait until it is connected to the gateway (its session of shard ``shard_id``,
    when given: another process may hold the others). Output goes to ``BotProcess.log_path``
    (deleted after a clean exit, kept when the block fails). On exit the process is killed if
    still running. ``timeout``: a fresh bot.py (its imports alone take 1.2-1.6 s on a quiet
    machine, then migrations, the card emojis, the command list) can need more than 15 s with
    both cores busy; waiting longer costs nothing when it connects sooner."""
    log = tempfile.NamedTemporaryFile(prefix="bot-", suffix=".log", delete=False)  # noqa: SIM115
    full_env = bot_environment({**discord_env_for(fake.base_url), **(env or {})})
    process = await asyncio.create_subprocess_exec(
        *args, env=full_env, cwd=cwd, stdout=log, stderr=asyncio.subprocess.STDOUT,
        stdin=asyncio.subprocess.DEVNULL)
    log.close()
    bot = BotProcess(process, Path(log.name))
    try:
        if wait_connected:
            try:
                await fake.gateway.wait_connected(timeout, shard_id=shard_id)
            except TimeoutError:
                raise AssertionError(f"bot process never connected:\n{bot.output()}") from None
        yield bot
    except BaseException:
        print(f"bot process output kept in {bot.log_path}")
        raise
    else:
        bot.log_path.unlink(missing_ok=True)
    finally:
        bot.kill()
        await process.wait()


PYTHON = sys.executable
