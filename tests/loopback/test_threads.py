"""The loopback Discord's threads, proved against real discord.py (the tiny bot of
test_fake): started from a message or in a channel, messages in them, archived by
PATCH and reopened by a message, and interactions from inside carrying the thread's id."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

THREAD_FROM_MESSAGE = "POST /channels/{channel_id}/messages/{message_id}/threads"


async def test_a_thread_from_a_message_has_its_id_and_shows_on_it(fake_discord, bot):
    fake = fake_discord
    parent = bot.get_channel(fake.channel("general").id)
    message = await parent.send("A game starts")
    thread = await message.create_thread(name="LAMA #1")
    assert thread.id == message.id and thread.parent_id == parent.id
    assert isinstance(thread, discord.Thread) and thread.owner_id == bot.user.id
    held = fake.channels[message.id]
    assert held.is_thread and held.name == "LAMA #1"
    starter = fake.public_messages("general")[-1]
    assert starter.started_thread is held and starter.to_json()["thread"]["id"] == str(thread.id)
    await thread.send("the table")
    assert [m.content for m in fake.public_messages(held)] == ["the table"]
    with pytest.raises(discord.HTTPException) as again:
        await message.create_thread(name="twice")
    assert again.value.code == 160004
    found = await bot.http.get_channel(message.id)  # the thread Discord made: the same id
    assert found["id"] == str(message.id) and found["parent_id"] == str(parent.id)


@pytest.mark.parametrize("after_work", [False, True], ids=["before-its-work", "after-its-work"])
async def test_a_held_call_waits_for_the_test_and_may_be_lost_or_done(
    fake_discord, bot, after_work
):
    """`hold_next`: a crash test's moment. Held before its work and released without it, the
    thread is never made; held after it, it is made though its answer waited."""
    fake = fake_discord
    parent = bot.get_channel(fake.channel("general").id)
    message = await parent.send("A game starts")
    held = fake.hold_next(THREAD_FROM_MESSAGE, after_work=after_work)
    creating = asyncio.create_task(message.create_thread(name="LAMA #6"))
    call = await held.reached()
    assert call.params["message_id"] == str(message.id) and not creating.done()
    assert (message.id in fake.channels) is after_work
    held.release(work=after_work)
    if after_work:
        assert (await creating).id == message.id
    else:
        with pytest.raises(aiohttp.ClientError):
            await creating  # no answer at all, and nothing done
        assert message.id not in fake.channels


async def test_a_thread_in_a_channel_leaves_a_system_message(fake_discord, bot):
    fake = fake_discord
    parent = bot.get_channel(fake.channel("general").id)
    thread = await parent.create_thread(name="LAMA #2", type=discord.ChannelType.public_thread)
    assert thread.type is discord.ChannelType.public_thread
    notice = fake.channel("general").messages[-1]
    assert notice.type == 18 and notice.started_thread is fake.channels[thread.id]


async def test_archiving_and_a_message_reopening_a_thread(fake_discord, bot):
    fake = fake_discord
    parent = bot.get_channel(fake.channel("general").id)
    thread = await (await parent.send("start")).create_thread(name="LAMA #3")
    archived = await thread.edit(archived=True)
    held = fake.channels[thread.id]
    assert archived.archived and held.thread.archived
    await thread.send("a rematch?")
    assert not held.thread.archived
    assert [m.content for m in fake.public_messages(held)] == ["a rematch?"]


async def test_the_creator_may_not_lock_without_manage_threads(fake_discord, bot):
    fake = fake_discord
    parent = bot.get_channel(fake.channel("general").id)
    thread = await (await parent.send("start")).create_thread(name="LAMA #4")
    with pytest.raises(discord.Forbidden):
        await thread.edit(locked=True)
    assert not fake.channels[thread.id].thread.locked


async def test_an_interaction_inside_a_thread_carries_the_threads_channel(fake_discord, bot):
    fake = fake_discord
    parent = bot.get_channel(fake.channel("general").id)
    thread = await (await parent.send("start")).create_thread(name="LAMA #5")
    result = await fake.slash(fake.user("alice"), fake.channels[thread.id], "whoami")
    payload = result.record.payload
    assert payload["channel_id"] == str(thread.id)
    assert payload["channel"]["type"] == 11 and payload["channel"]["parent_id"] == str(parent.id)
    assert "in_guild=True" in result.text
