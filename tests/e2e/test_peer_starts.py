"""Issue 33, point 2: two bot.py processes (shards 0 and 1 of one bot) started together on one
PostgreSQL both find the card emojis missing and both upload them. Discord refuses the second
upload of a name (400, 50035, "name": already taken); the refused process lists the emojis again
and uses its peer's, so both show card faces. Both also find the command tree changed and sync
it: Discord's bulk overwrite is idempotent (same names, same ids) and the stored hash an
upsert, so both go on."""

from __future__ import annotations

import asyncio
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from cogs.emojis import FACE_OF_NAME
from loopback import rest
from loopback.running import BOT_TOKEN, run_bot_process
from store import Store

pytestmark = pytest.mark.timeout(300)

REPO = Path(__file__).resolve().parents[2]
NO_FACES = "no card emojis"
READY = "Card faces as application emojis:"
SYNCED = "slash commands globally"


def start(fake, url: str, shard: int):
    env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_URL": url, "SHARD_COUNT": "2",
           "SHARD_IDS": str(shard), "RENDER_DELAY": "0"}
    return run_bot_process(fake, [sys.executable, "bot.py"], env=env, cwd=REPO,
                           shard_id=shard, timeout=90)


def together(monkeypatch, operation: str, peers: int) -> None:
    """The first `peers` calls of `operation` are answered together, once all have asked:
    each process acts on what it saw before the other's call, as when two start at once."""
    handler = rest.HANDLERS[operation]
    arrived = asyncio.Barrier(peers)
    waiting = [peers]

    async def held(fake, call):
        if waiting[0] > 0:
            waiting[0] -= 1
            await arrived.wait()
        return await handler(fake, call)

    monkeypatch.setitem(rest.HANDLERS, operation, held)


async def test_two_processes_started_together_both_show_card_faces(
        fake_discord, postgres_url, monkeypatch):
    fake = fake_discord
    together(monkeypatch, "bulk_set_application_commands", 2)  # both find the tree changed
    together(monkeypatch, "list_application_emojis", 2)  # both find every face missing
    async with AsyncExitStack() as processes:
        zero, one = await asyncio.gather(
            processes.enter_async_context(start(fake, postgres_url, 0)),
            processes.enter_async_context(start(fake, postgres_url, 1)))
        for process in (zero, one):
            output = process.output()
            assert NO_FACES not in output, output
            assert READY in output, output
            assert SYNCED in output, output
    commands = [c["name"] for c in fake.commands[None]]
    assert commands and len(set(commands)) == len(commands)  # the same list, put twice
    store = await Store.open(postgres_url)
    assert await store.settings.get_meta("command_tree_hash")  # the next start syncs nothing
    await store.close()
    names = [e["name"] for e in fake.application_emojis.values()]
    assert sorted(names) == sorted(FACE_OF_NAME)  # each face once
    refused = fake.take_errors("invalid_body")
    assert refused, "the processes never raced: the test proves nothing"
    assert all("names must be unique" in str(e) for e in refused), refused
