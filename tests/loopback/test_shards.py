"""The loopback Discord's shards, proved against real discord.py: each gateway session gets
the guilds ``(guild_id >> 22) % shard_count`` gives it, a guild's events and interactions go
to that shard only, DM interactions to shard 0 only, and GET /gateway/bot advises the count."""

from __future__ import annotations

import json
from contextlib import AsyncExitStack

import aiohttp
import discord
import pytest
from discord.ext import commands

from loopback import FakeDiscord
from loopback.gateway import CLOSE_INVALID_SHARD, IDENTIFY, INTENT_GUILDS, shard_of
from loopback.ids import Snowflakes
from loopback.running import BOT_TOKEN, run_bot

CHANNEL_MESSAGES = "POST /channels/{channel_id}/messages"


class ShardBot(commands.AutoShardedBot):
    """Runs the shards it is given (all the advised ones by default) and says which answered."""

    def __init__(self, label: str, **shards) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         guild_ready_timeout=0.05, **shards)
        self.label = label

        @self.tree.command(description="Which process and shard answers")
        async def where(interaction: discord.Interaction) -> None:
            shard = interaction.guild.shard_id if interaction.guild else "dm"
            await interaction.response.send_message(f"{self.label} shard {shard}")

        @self.tree.command(description="Post in a channel by id")
        async def post(interaction: discord.Interaction, channel_id: str) -> None:
            channel = await self.fetch_channel(int(channel_id))
            await channel.send(f"from {self.label}")
            await interaction.response.send_message("posted", ephemeral=True)

    async def before_identify_hook(self, shard_id, *, initial=False) -> None:
        pass  # discord.py waits 5 s between IDENTIFYs of one process; Discord's fake does not


@pytest.fixture
async def two_guilds(fake_discord: FakeDiscord):
    """Two shards advised; "LAMA Club" on whichever shard its id gives, "Second" on the other."""
    fake_discord.shard_count = 2
    other = 1 - fake_discord.shard_of(fake_discord.guild)
    second = await fake_discord.add_guild("Second", shard=(other, 2))
    return fake_discord.guild, second


def test_a_snowflake_on_a_shard_lands_there_and_stays_increasing() -> None:
    snowflakes = Snowflakes()
    for number, total in [(0, 2), (1, 2), (3, 4), (0, 16), (15, 16)]:
        before = snowflakes.next()
        value = snowflakes.next_on_shard(number, total)
        assert shard_of(value, total) == number and value > before
        assert snowflakes.next() > value


async def test_gateway_bot_advises_the_shard_count_and_one_process_runs_them_all(
    fake_discord: FakeDiscord, two_guilds
) -> None:
    first, second = two_guilds
    async with run_bot(fake_discord, ShardBot("one")) as bot:
        assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
        assert {g.id: g.shard_id for g in bot.guilds} == {
            first.id: shard_of(first.id, 2), second.id: shard_of(second.id, 2)}
        assert sorted(s.shard for s in fake_discord.gateway.live_sessions()) == [(0, 2), (1, 2)]
        for guild in (first, second):
            result = await fake_discord.slash(fake_discord.user("alice"),
                                              guild.channel("lama"), "where")
            assert result.content == f"one shard {shard_of(guild.id, 2)}"


async def test_each_session_is_ready_with_only_its_own_guilds(
    fake_discord: FakeDiscord, two_guilds
) -> None:
    first, second = two_guilds
    async with run_bot(fake_discord, ShardBot("one")):
        for session in fake_discord.gateway.live_sessions():
            ready = session.log[0]["d"]
            created = [int(p["d"]["id"]) for p in session.log if p["t"] == "GUILD_CREATE"]
            mine = [g.id for g in (first, second) if shard_of(g.id, 2) == session.shard[0]]
            assert ready["shard"] == list(session.shard)
            assert [int(g["id"]) for g in ready["guilds"]] == created == mine


async def test_two_processes_each_answer_their_own_guilds_and_dms_go_to_shard_0(
    fake_discord: FakeDiscord, two_guilds
) -> None:
    alice = fake_discord.user("alice")
    async with AsyncExitStack() as stack:
        for shard in (0, 1):
            await stack.enter_async_context(run_bot(
                fake_discord, ShardBot(f"process{shard}", shard_count=2, shard_ids=[shard])))
        for guild in two_guilds:
            shard = shard_of(guild.id, 2)
            result = await fake_discord.slash(alice, guild.channel("lama"), "where")
            assert result.content == f"process{shard} shard {shard}"
        in_dm = await fake_discord.slash(alice, None, "where")
        assert in_dm.content == "process0 shard dm"


async def test_a_guilds_events_reach_only_the_session_of_its_shard(
    fake_discord: FakeDiscord, two_guilds
) -> None:
    alice = fake_discord.user("alice")
    async with AsyncExitStack() as stack:
        for shard in (0, 1):
            await stack.enter_async_context(run_bot(
                fake_discord, ShardBot(f"process{shard}", shard_count=2, shard_ids=[shard])))
        for guild in two_guilds:
            lama = guild.channel("lama")
            await fake_discord.slash(alice, lama, "post", channel_id=str(lama.id))
        dm = await fake_discord.slash(alice, None, "where")  # a DM reply: MESSAGE_CREATE too
        for session in fake_discord.gateway.live_sessions():
            created = [p["d"] for p in session.log if p["t"] == "MESSAGE_CREATE"]
            guild_ids = {int(d["guild_id"]) for d in created if "guild_id" in d}
            assert guild_ids == {g.id for g in two_guilds
                                 if shard_of(g.id, 2) == session.shard[0]}
            in_dm = [d for d in created if int(d["id"]) == dm.message.id]
            assert len(in_dm) == (1 if session.shard[0] == 0 else 0)


async def test_a_guild_added_later_is_created_on_its_shard_only(fake_discord: FakeDiscord) -> None:
    fake_discord.shard_count = 2
    async with run_bot(fake_discord, ShardBot("one")) as bot:
        before = {s.shard: len(s.log) for s in fake_discord.gateway.live_sessions()}
        added = await fake_discord.add_guild("Late", shard=(1, 2))
        await fake_discord.gateway.wait_routed(added.id)
        for session in fake_discord.gateway.live_sessions():
            new = [p for p in session.log[before[session.shard]:] if p["t"] == "GUILD_CREATE"]
            assert len(new) == (1 if session.shard == (1, 2) else 0)
        result = await fake_discord.slash(fake_discord.user("bob"), added.channel("lama"), "where")
        assert result.content == "one shard 1"
        assert bot.get_guild(added.id).shard_id == 1


async def test_an_interaction_for_a_shard_nobody_runs_is_never_answered(
    fake_discord: FakeDiscord, two_guilds
) -> None:
    fake_discord.wait_timeout = 0.5
    async with run_bot(fake_discord, ShardBot("zero", shard_count=2, shard_ids=[0])):
        unserved = next(g for g in two_guilds if shard_of(g.id, 2) == 1)
        with pytest.raises(AssertionError, match="did not respond"):
            await fake_discord.slash(fake_discord.user("alice"), unserved.channel("lama"), "where")


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], "0,2", [0, 1, 2]])
async def test_an_identify_with_an_impossible_shard_is_closed_4010(
    fake_discord: FakeDiscord, shard
) -> None:
    identify = {"op": IDENTIFY, "d": {
        "token": BOT_TOKEN, "intents": INTENT_GUILDS, "shard": shard,
        "properties": {"os": "linux", "browser": "test", "device": "test"}}}
    async with aiohttp.ClientSession() as http, http.ws_connect(fake_discord.ws_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_str(json.dumps(identify))
        message = await ws.receive()
        assert message.type is aiohttp.WSMsgType.CLOSE and message.data == CLOSE_INVALID_SHARD
    assert fake_discord.gateway.identifies == 0
