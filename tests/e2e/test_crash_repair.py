"""Repair after a restart compares, it does not trust (issue 35, point 1): the real bot.py is
killed with SIGKILL while Discord holds back its answer to a message the bot posted, and
started again. The restart posts that message again under the same nonce, and Discord hands
back the message as it was first posted, showing an older state than the store's. Once the
bot is back, and before anyone moves, the table of the round being played and the hand of the
player on turn show the game as stored (tests/support/shown.py).

Kill points: the deal's table posted, the next move made (the table shows the deal); a new
round's table posted, its first move made; a waiting seat's deal DM posted, the starter's
move made from the table, so that seat is on turn after the restart with only that deal; a
round's close refused (429s) while the next round's table was posted and stored."""

from __future__ import annotations

import pytest

from lama import events as ev
from tests.support.crash import (
    answer_held,
    effect_of_quit,
    on_turn,
    pending_moves,
    posts_a_waiting_hand,
    posts_table,
    press,
    quit_until_a_quit_leads_to,
    read_db,
    running_bot,
    start,
    stored_game,
    tables_of_round,
    wait_disconnected,
    wait_for,
)
from tests.support.shown import shows_the_store

GAME = 1
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
STORM = 600.0  # seconds: until the test ends it


async def killed(bot, fake) -> None:
    bot.kill()
    await wait_disconnected(fake)


def moves_stored(db) -> int:
    return read_db(db, "SELECT COUNT(*) FROM moves WHERE game_id = ?", (GAME,))[0][0]


@pytest.mark.parametrize("round_number", [pytest.param(1, id="the-deal"),
                                          pytest.param(2, id="a-new-round")])
async def test_a_table_whose_post_was_unanswered_shows_the_stored_state_after_a_restart(
    fake_discord, tmp_path, monkeypatch, round_number
):
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, players = fake.channel("lama"), [fake.user("alice"), fake.user("bob")]
    held = answer_held(monkeypatch, "create_message", posts_table(GAME, round_number))
    async with running_bot(fake, db, "0") as bot:
        await start(fake, channel, *players)
        if round_number > 1:
            await quit_until_a_quit_leads_to(fake, players, GAME, db, ev.RoundEnded)
        await held.wait()  # the table is on Discord; the bot has not heard back
        mover = await on_turn(fake, players, GAME, db)
        await press(fake, mover, GAME, "draw")
        await killed(bot, fake)
    # the window: the round's start is not marked shown, the table shows the state before
    assert stored_game(db, GAME)[1].round_number == round_number
    assert len(pending_moves(db, GAME)) >= 2
    assert len(tables_of_round(fake, channel, GAME, round_number)) == 1

    async with running_bot(fake, db, "0"):
        await shows_the_store(fake, channel, players, db, GAME)


async def test_a_deal_dm_whose_post_was_unanswered_is_live_when_its_seat_is_on_turn(
    fake_discord, tmp_path, monkeypatch
):
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, players = fake.channel("lama"), [fake.user("alice"), fake.user("bob")]
    held = answer_held(monkeypatch, "create_message", posts_a_waiting_hand(GAME))
    async with running_bot(fake, db, "0") as bot:
        await start(fake, channel, *players)
        await held.wait()  # the waiting seat's deal is on Discord; the bot has not heard back
        _, game = stored_game(db, GAME)
        starter = players[game.current_seat]
        await wait_for(lambda: tables_of_round(fake, channel, GAME, 1), what="the table")
        (table,) = tables_of_round(fake, channel, GAME, 1)
        drawn = await fake.click(starter, table, "Draw")  # no DM needed: the table's button
        assert drawn.refused is None
        await wait_for(lambda: moves_stored(db) == 1, what="the draw stored")
        await killed(bot, fake)
    assert stored_game(db, GAME)[1].current_seat != game.current_seat

    async with running_bot(fake, db, "0"):
        await shows_the_store(fake, channel, players, db, GAME)


async def test_a_rounds_close_that_failed_before_a_crash_closes_that_rounds_table(
    fake_discord, tmp_path
):
    """The table-close crash window: round 1's close meets a storm of 429s, round 2's table is
    posted and stored as the game's table, and the bot dies before a retry got through. The
    restart closes round 1's own table, not the game's table (round 2's), nor leaves it live."""
    fake, db = fake_discord, tmp_path / "lama.sqlite3"
    channel, players = fake.channel("lama"), [fake.user("alice"), fake.user("bob")]
    async with running_bot(fake, db, "0") as bot:
        await start(fake, channel, *players)
        await wait_for(lambda: tables_of_round(fake, channel, GAME, 1), what="the table")
        (first,) = tables_of_round(fake, channel, GAME, 1)
        while True:
            user = await on_turn(fake, players, GAME, db)
            ends = ev.RoundEnded in effect_of_quit(stored_game(db, GAME)[1])
            if ends:
                fake.rate_limit_for(EDIT, STORM, message_id=first.id)
            await press(fake, user, GAME, "quit")
            if ends:
                break
        await wait_for(lambda: tables_of_round(fake, channel, GAME, 2), what="round 2's table")
        (second,) = tables_of_round(fake, channel, GAME, 2)
        await wait_for(lambda: stored_table(db) == (second.id, 2), what="round 2's table stored")
        await killed(bot, fake)
    assert first.buttons and pending_moves(db, GAME)  # round 1 live, its end not shown
    fake.calm()  # the storm is over

    async with running_bot(fake, db, "0"):
        await shows_the_store(fake, channel, players, db, GAME)


def stored_table(db) -> tuple[int, int]:
    [row] = read_db(db, "SELECT table_message_id, table_round FROM games WHERE id = ?", (GAME,))
    return row
