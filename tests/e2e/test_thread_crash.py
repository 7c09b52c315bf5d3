"""A game in a thread survives a crash while its thread is made (issue 35 point 5).

The real bot.py is killed with SIGKILL while its call that starts the game's thread from the
lobby message is on its way: before Discord made the thread, and after Discord made it but
before the bot heard (and stored it). Started again, the game plays in the one thread of its
lobby: the thread Discord already made is found (a thread started from a message has the
message's id) instead of the retry's 160004 "A thread has already been created for this
message" leaving the game in the channel and the thread under the lobby empty."""

from __future__ import annotations

import pytest

from tests.e2e.games import threads_on
from tests.support.crash import read_db, running_bot, wait_disconnected, wait_for

THREAD_FROM_MESSAGE = "POST /channels/{channel_id}/messages/{message_id}/threads"


def table_in(fake, place) -> list:
    return [m for m in fake.public_messages(place) if m.components_v2]


@pytest.mark.parametrize("made", [False, True],
                         ids=["before-discord-made-it", "made-but-not-stored"])
async def test_a_crash_while_the_thread_is_made_leaves_the_game_in_its_lobbys_thread(
    fake_discord, tmp_path, made
):
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, alice, bob = fake.channel("lama"), fake.user("alice"), fake.user("bob")
    async with running_bot(fake, db, "0") as bot:
        await threads_on(fake)
        await fake.slash(alice, channel, "lama new")
        await fake.slash(bob, channel, "lama join")
        held = fake.hold_next(THREAD_FROM_MESSAGE, after_work=made)
        await fake.slash(alice, channel, "lama start")
        await held.reached()
        bot.kill()
        await wait_disconnected(fake)
        held.release(work=made)
    lobby = fake.public_messages(channel)[0]
    assert (lobby.started_thread is not None) is made
    assert read_db(db, "SELECT thread_id FROM games WHERE id = 1") == [(None,)]

    async with running_bot(fake, db, "0"):
        await wait_for(lambda: lobby.started_thread is not None
                       and table_in(fake, lobby.started_thread), what="the table in the thread")
        thread = lobby.started_thread
        assert thread.id == lobby.id
        assert read_db(db, "SELECT thread_id FROM games WHERE id = 1") == [(thread.id,)]
        assert [m.id for m in fake.public_messages(channel)] == [lobby.id]  # nothing else
        assert len(table_in(fake, thread)) == 1
        assert [c for c in fake.channels.values() if c.is_thread] == [thread]
