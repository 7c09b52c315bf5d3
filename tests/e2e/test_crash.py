"""What players see survives a crash (issue 12): the real bot.py is killed with SIGKILL in the
50 ms after a move and started again; what the move committed is then shown exactly once.

Two moments per case: before the move's render began (the renderer's usual batching delay)
and while it runs (no delay, killed 30 ms in), where a message may be on Discord already but
not yet marked shown."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing, contextmanager

import pytest

from lama import events as ev
from loopback.interactions import DEFER_UPDATE
from tests.e2e.rematches import as_seen_before, pointed_to, press_rematch, rematch_link
from tests.support.crash import (
    all_shown,
    hands_of,
    kill_after,
    live_hands,
    on_turn,
    press,
    quit_until_a_quit_leads_to,
    read_db,
    rematch_posts,
    running_bot,
    start,
    stored_game,
    tables_of_round,
    wait_for,
)

GAME = 1
MOMENTS = [pytest.param("0.3", 0.0, id="before-its-render"),
           pytest.param("0", 0.03, id="during-its-render")]
ROUND_OVER = "Round {} is over"








@pytest.mark.parametrize("render_delay, kill_at", MOMENTS)
async def test_a_round_ended_just_before_a_crash_is_summed_up_once(
    fake_discord, tmp_path, render_delay, kill_at
):
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, players = fake.channel("lama"), [fake.user("alice"), fake.user("bob")]
    async with running_bot(fake, db, render_delay) as bot:
        await start(fake, channel, *players)
        await quit_until_a_quit_leads_to(fake, players, GAME, db, ev.RoundEnded)
        assert stored_game(db, GAME)[1].round_number == 2
        await kill_after(bot, fake, kill_at)

    async with running_bot(fake, db, render_delay):
        await all_shown(db)
        summaries = [m for m in fake.public_messages(channel) if ROUND_OVER.format(1) in m.text]
        assert len(summaries) == 1
        assert not summaries[0].buttons  # the round's table, closed
        assert len(tables_of_round(fake, channel, GAME, 2)) == 1
        starter = await on_turn(fake, players, GAME, db)
        assert len(live_hands(fake, starter, GAME)) == 1


@pytest.mark.parametrize("render_delay, kill_at", MOMENTS)
async def test_a_game_ended_just_before_a_crash_is_announced_once_with_its_rematch(
    fake_discord, tmp_path, render_delay, kill_at
):
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, players = fake.channel("lama"), [fake.user("alice"), fake.user("bob")]
    async with running_bot(fake, db, render_delay) as bot:
        await start(fake, channel, *players, target=10)
        await quit_until_a_quit_leads_to(fake, players, GAME, db, ev.GameEnded)
        assert stored_game(db, GAME)[0] == "finished"
        await kill_after(bot, fake, kill_at)

    async with running_bot(fake, db, render_delay):
        await all_shown(db)
        (end,) = rematch_posts(fake, channel, GAME)
        # where it is, for its Rematch to come back should the rematch be cancelled
        assert read_db(db, f"SELECT end_message_id FROM games WHERE id = {GAME}") == [(end.id,)]
        for user in players:  # the game is over: no hand keeps live buttons
            assert live_hands(fake, user, GAME) == []


@pytest.mark.parametrize("render_delay, kill_at", MOMENTS)
async def test_the_next_player_is_pinged_once_after_a_crash_right_after_a_turn(
    fake_discord, tmp_path, render_delay, kill_at
):
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, players = fake.channel("lama"), [fake.user("alice"), fake.user("bob")]
    async with running_bot(fake, db, render_delay) as bot:
        await start(fake, channel, *players)
        mover = await on_turn(fake, players, GAME, db)
        (following,) = (u for u in players if u is not mover)
        await wait_for(lambda: hands_of(fake, following, GAME), what="the deal")
        dms_before = len(fake.dms(following))
        await press(fake, mover, GAME, "draw")
        await kill_after(bot, fake, kill_at)

    async with running_bot(fake, db, render_delay):
        await all_shown(db)
        assert await on_turn(fake, players, GAME, db) is following
        assert len(fake.dms(following)) == dms_before + 1  # one ping
        assert len(live_hands(fake, following, GAME)) == 1  # the deal's hand was closed


async def test_a_rematch_press_after_a_crash_finds_the_rematch_opened_before_it(
    fake_discord, tmp_path
):
    """Killed right after a Rematch opened its lobby: a press on the old button (a client
    that had not seen it turn into a link) after the restart is pointed to that lobby, and
    no second lobby opens."""
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, (alice, bob) = fake.channel("lama"), [fake.user("alice"), fake.user("bob")]
    async with running_bot(fake, db, "0") as bot:
        await start(fake, channel, alice, bob, target=10)
        await quit_until_a_quit_leads_to(fake, [alice, bob], GAME, db, ev.GameEnded)
        await wait_for(lambda: rematch_posts(fake, channel, GAME), what="the game's end")
        (end,) = rematch_posts(fake, channel, GAME)
        seen = as_seen_before(end)
        lobby = await press_rematch(fake, bob, end)
        await wait_for(lambda: read_db(db, "SELECT lobby_message_id FROM games WHERE id = 2")
                       == [(lobby.id,)], what="the lobby's id stored")
        await kill_after(bot, fake, 0.0)

    async with running_bot(fake, db, "0"):
        told = await pointed_to(await fake.click(alice, seen, "Rematch"))
        assert told.ephemeral and "a seat in [the rematch](https://discord.com/" in told.text
        assert rematch_link(end) is not None
        lobbies = [m for m in fake.public_messages(channel) if "Rematch of" in m.embed_text]
        assert lobbies == [lobby]


@contextmanager
def database_write_locked(db_path):
    """Another program holds the database's write lock (as a backup tool might): the bot's
    commits wait for it (its busy timeout is 5 s)."""
    with closing(sqlite3.connect(db_path, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")


async def test_a_press_the_bot_answers_late_counts_once_the_player_sees_its_move(
    fake_discord, tmp_path
):
    """The crash tests count a move acknowledged once `press` returns. A bot whose commit
    waits stands in with a silent defer after 1.5 s (cogs/timely.py): the player has seen
    nothing yet and the move may not be stored, so `press` waits for the hand's redraw,
    which comes after the commit. (Counting the defer let a kill right after it lose a
    move the test thought acknowledged.)"""
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, players = fake.channel("lama"), [fake.user("alice"), fake.user("bob")]
    async with running_bot(fake, db, "0"):
        await start(fake, channel, *players)
        mover = await on_turn(fake, players, GAME, db)

        async def pressed() -> int:
            await press(fake, mover, GAME, "draw")
            return stored_moves(db)

        with database_write_locked(db):
            pressing = asyncio.create_task(pressed())
            await wait_for(lambda: deferred_presses(fake, mover), what="the bot to defer")
        assert await pressing == 1  # stored before `press` returned


def stored_moves(db_path) -> int:
    return read_db(db_path, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (GAME,))[0][0]


def deferred_presses(fake, user) -> list:
    return [r for r in fake.interactions_by_token.values()
            if r.user is user and r.response_type == DEFER_UPDATE]
