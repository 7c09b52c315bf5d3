"""Starting the bot: settings, token problems, command sync on purpose, the invite URL."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import discord.gateway
import discord.http
import pytest

import interpreter
from bot import LamaBot, Settings, main
from loopback.hook import discord_env_for, restore_real_discord
from loopback.running import BOT_TOKEN, bot_environment, run_bot, run_bot_process
from loopback.server import BAD_TOKEN, FakeDiscord
from store import Store
from tests.support.backends import BACKENDS

REPO = Path(__file__).resolve().parents[2]
SYNC_ROUTE = "PUT /applications/{application_id}/commands"
PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 24, 1, 2  # <linux/prctl.h>, capability.h


def test_settings_come_from_the_environment(tmp_path):
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": " abc ",
            "DATABASE_PATH": str(tmp_path / "x.sqlite3"),
            "DEV_GUILD_ID": "42",
            "LOG_LEVEL": "debug",
            "SHARD_COUNT": "4",
            "SHARD_IDS": "0,1",
        }
    )
    assert settings.token == "abc"
    assert settings.database_path == tmp_path / "x.sqlite3"
    assert settings.dev_guild_id == 42
    assert settings.log_level == "DEBUG"
    assert (settings.shard_count, settings.shard_ids) == (4, (0, 1))


def test_the_database_defaults_to_the_data_folder():
    assert Settings.from_env({}).database_path == Path("data/lama.sqlite3")
    assert Settings.from_env({}).database_url == ""


def test_a_database_url_is_read_for_postgresql():
    url = "postgresql://lamabot:secret@db:5432/lamabot"
    assert Settings.from_env({"DATABASE_URL": f" {url} "}).database_url == url


def test_processes_sharing_postgresql_may_each_run_some_shards():
    shards = {"SHARD_COUNT": "2", "SHARD_IDS": "1"}
    assert Settings.from_env(shards).shard_problem() is not None  # SQLite: every shard here
    shared = Settings.from_env({**shards, "DATABASE_URL": "postgresql://lamabot@db/lamabot"})
    assert shared.shard_problem() is None


def test_a_missing_token_is_explained_without_a_traceback(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN is missing" in err
    assert "discord.com/developers/applications" in err
    assert "Traceback" not in err


async def test_an_invalid_token_is_explained_without_a_traceback(fake_discord, tmp_path):
    env = bot_environment({
        "DISCORD_TOKEN": BAD_TOKEN,
        "DATABASE_PATH": str(tmp_path / "lama.sqlite3"),
        **discord_env_for(fake_discord.base_url),
    })
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "bot.py",
        cwd=REPO,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 2
    assert b"not accepted by Discord" in err
    assert b"Traceback" not in err


def _bot(tmp_path, **kw):
    settings = Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3", render_delay=0)
    return LamaBot(settings, guild_ready_timeout=0.05, **kw)


@contextlib.asynccontextmanager
async def bot_process_ready(fake_discord, tmp_path) -> AsyncIterator[None]:
    """A bot set up as the bot process is (`freeze_startup`), connected and past on_ready;
    afterwards the test process's collector is as it was (nothing frozen for good)."""
    thresholds, switch_interval = gc.get_threshold(), sys.getswitchinterval()
    settings = Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3",
                        render_delay=0, freeze_startup=True)
    try:
        async with run_bot(fake_discord, LamaBot(settings, guild_ready_timeout=0.05),
                           sync_commands=False):
            for _ in range(500):  # on_ready runs just after the bot counts as ready
                if gc.get_freeze_count():
                    break
                await asyncio.sleep(0.01)
            yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(switch_interval)


async def test_once_connected_the_bot_process_keeps_start_up_objects_out_of_full_collections(
        fake_discord, tmp_path):
    """A full collection re-scanned every module, cache and restored game, pausing every
    answer meanwhile; frozen once ready, only what changes since is scanned."""
    assert Settings.from_env({}).freeze_startup  # the bot process
    async with bot_process_ready(fake_discord, tmp_path):
        assert gc.get_freeze_count() > 0


async def test_once_connected_the_bot_process_collects_young_objects_every_20000_allocations(
        fake_discord, tmp_path):
    """An answer's objects live for its commit: at CPython's 700 allocations per young
    collection they reached the oldest generation by the thousand, and full collections
    came every few seconds under load; at 7,000 the interactions in flight alone started
    one every half second."""
    thresholds = gc.get_threshold()
    async with bot_process_ready(fake_discord, tmp_path):
        assert gc.get_threshold() == (20_000, *thresholds[1:])  # CPython's default: 700


async def test_once_connected_the_bot_process_hands_the_gil_over_within_a_millisecond(
        fake_discord, tmp_path):
    """SQLite's thread runs every commit: with CPython's 5 ms switch interval, each of its
    statements could wait 5 ms for a busy event loop to let go of the GIL."""
    assert sys.getswitchinterval() == 0.005  # CPython's default, in the test process
    async with bot_process_ready(fake_discord, tmp_path):
        assert sys.getswitchinterval() == 0.001


async def test_the_bot_process_runs_its_event_loop_on_uvloop(fake_discord, tmp_path):
    """Sockets, timers and thread wake-ups in C: less CPU for every interaction."""
    env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_PATH": str(tmp_path / "lama.sqlite3")}
    async with run_bot_process(fake_discord, [sys.executable, "bot.py"], env=env,
                               cwd=REPO) as process:
        for _ in range(600):
            if "Event loop:" in process.output():
                break
            await asyncio.sleep(0.05)
        assert "Event loop: uvloop" in process.output()


async def test_the_languages_load_before_the_bot_freezes_its_start_up_objects(
        fake_discord, tmp_path, monkeypatch):
    """Else their data loads at first use, among what every full collection scans."""
    freeze_counts: list[int] = []  # at the warm-up
    monkeypatch.setattr(interpreter, "warm_up",
                        lambda: freeze_counts.append(gc.get_freeze_count()))
    async with bot_process_ready(fake_discord, tmp_path):
        assert freeze_counts == [0] and gc.get_freeze_count() > 0


async def test_a_bot_built_inside_tests_freezes_nothing(fake_discord, tmp_path):
    async with run_bot(fake_discord, _bot(tmp_path), sync_commands=False):
        await asyncio.sleep(0.05)
    assert gc.get_freeze_count() == 0


async def test_commands_are_synced_once_and_not_again_when_unchanged(fake_discord, tmp_path):
    async with run_bot(fake_discord, _bot(tmp_path), sync_commands=False):
        pass
    async with run_bot(fake_discord, _bot(tmp_path), sync_commands=False):
        pass
    assert len(fake_discord.rest_calls(SYNC_ROUTE)) == 1


async def test_sync_can_be_forced(fake_discord, tmp_path):
    async with run_bot(fake_discord, _bot(tmp_path), sync_commands=False):
        pass
    async with run_bot(fake_discord, _bot(tmp_path, sync=True), sync_commands=False):
        pass
    assert len(fake_discord.rest_calls(SYNC_ROUTE)) == 2


async def test_every_command_is_registered(fake_discord, tmp_path):
    async with run_bot(fake_discord, _bot(tmp_path), sync_commands=False):
        pass
    body = fake_discord.rest_calls(SYNC_ROUTE)[0].body
    names = {c["name"] for c in body}
    assert {"lama", "play", "draw", "quit"} <= names
    lama = next(c for c in body if c["name"] == "lama")
    subcommands = {o["name"] for o in lama["options"]}
    expected = {"new", "join", "leave", "start", "cancel", "kick", "hand", "table", "rules"}
    assert expected <= subcommands


async def test_the_invite_url_names_the_scopes_and_permissions(fake_discord, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="lamabot")
    async with run_bot(fake_discord, _bot(tmp_path), sync_commands=False) as bot:
        await asyncio.sleep(0)
        url = bot.invite_url()
    assert "scope=bot+applications.commands" in url
    assert "permissions=" in url
    assert any("Invite URL" in r.getMessage() for r in caplog.records)


def test_discords_urls_are_settings_and_empty_means_discord_com():
    settings = Settings.from_env({
        "DISCORD_API_BASE_URL": " http://nirn-proxy:8080/api/v10/ ",
        "DISCORD_GATEWAY_URL": "ws://gateway-proxy:7878",
    })
    assert settings.discord_api_base_url == "http://nirn-proxy:8080/api/v10"
    assert settings.discord_gateway_url == "ws://gateway-proxy:7878"
    default = Settings.from_env({"DISCORD_API_BASE_URL": "", "DISCORD_GATEWAY_URL": " "})
    assert (default.discord_api_base_url, default.discord_gateway_url) == (None, None)


async def test_the_bot_reaches_discord_only_through_its_url_settings(fake_discord, tmp_path):
    restore_real_discord()  # as in a fresh process: discord.py points at discord.com
    env = discord_env_for(fake_discord.base_url)
    settings = Settings(
        token=BOT_TOKEN,
        database_path=tmp_path / "lama.sqlite3",
        render_delay=0,
        discord_api_base_url=env["DISCORD_API_BASE_URL"],
        discord_gateway_url=env["DISCORD_GATEWAY_URL"],
    )
    bot = LamaBot(settings, guild_ready_timeout=0.05)
    assert env["DISCORD_API_BASE_URL"] == discord.http.Route.BASE
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == env["DISCORD_GATEWAY_URL"]
    async with run_bot(fake_discord, bot, sync_commands=False):
        assert fake_discord.gateway.is_connected()


async def test_a_sharded_bot_connects_to_the_gateway_setting_not_discords_advice(
    fake_discord, tmp_path, monkeypatch
):
    real_gateway = fake_discord.ws_url
    monkeypatch.setattr(FakeDiscord, "ws_url", property(lambda fake: "ws://127.0.0.1:9/nowhere"))
    settings = Settings(
        token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3", render_delay=0,
        discord_gateway_url=real_gateway,
    )
    async with run_bot(fake_discord, LamaBot(settings, guild_ready_timeout=0.05),
                       sync_commands=False) as bot:
        assert bot.shard_count == 1  # Discord's advice for the count is still taken
        assert fake_discord.gateway.is_connected()


def _without_root_overrides() -> None:
    """In the child before exec: drop root's right to ignore file permissions (CI runs as
    root), so a read-only file or folder is read-only for the bot as for any other user."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 and os.geteuid() == 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) refused")


async def _start_bot_on(database: Path, fake_discord) -> tuple[int, str]:
    env = bot_environment({
        "DISCORD_TOKEN": BOT_TOKEN,
        "DATABASE_PATH": str(database),
        **discord_env_for(fake_discord.base_url),
    })
    process = await asyncio.create_subprocess_exec(
        sys.executable, "bot.py", cwd=REPO, env=env, preexec_fn=_without_root_overrides,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, err.decode()


async def _made_database(path: Path) -> None:
    store = await Store.open(path)
    await store.close()


def _the_one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("LamaBot cannot start")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


async def test_a_read_only_database_file_stops_the_bot_with_one_clear_line(
    fake_discord, tmp_path
):
    database = tmp_path / "lama.sqlite3"
    await _made_database(database)
    database.chmod(0o444)
    code, err = await _start_bot_on(database, fake_discord)
    line = _the_one_line(err)
    assert code == 2
    assert str(database) in line and "the file is read-only" in line
    assert "DATABASE_PATH" in line and "Fix:" in line


async def test_a_read_only_database_folder_stops_the_bot_with_one_clear_line(
    fake_discord, tmp_path
):
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "lama.sqlite3"
    await _made_database(database)
    folder.chmod(0o555)
    try:
        code, err = await _start_bot_on(database, fake_discord)
    finally:
        folder.chmod(0o755)
    line = _the_one_line(err)
    assert code == 2
    assert str(database) in line and f"its folder {folder} is read-only" in line
    assert "lama.sqlite3-wal" in line


async def test_a_new_database_in_a_read_only_folder_stops_the_bot_too(fake_discord, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir(mode=0o555)
    try:
        code, err = await _start_bot_on(folder / "lama.sqlite3", fake_discord)
    finally:
        folder.chmod(0o755)
    assert code == 2
    assert f"its folder {folder} is read-only" in _the_one_line(err)


@pytest.fixture(params=BACKENDS)
def database_url(request) -> str:
    return "" if request.param == "sqlite" else request.getfixturevalue("postgres_url")


async def test_a_bot_on_postgresql_sweeps_for_timers_left_due_even_as_one_process(
        database_url, fake_discord, tmp_path):
    """Another process's crash, or a claim of its own that met a row lock: on PostgreSQL a
    sweep takes up a timer left due. One SQLite process fires every timer itself."""
    settings = Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3",
                        database_url=database_url, render_delay=0)
    async with run_bot(fake_discord, LamaBot(settings, guild_ready_timeout=0.05),
                       sync_commands=False) as bot:
        tasks = {task.get_name() for task in bot._background}
    assert ("sweep" in tasks) is bool(database_url)
