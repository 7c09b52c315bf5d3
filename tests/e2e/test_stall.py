"""A database stall (issue 12 point 3): another connection holds SQLite's write lock for 4 s or
10 s, as a backup or a maintenance script would. Every interaction is answered inside
Discord's 3 seconds (the loopback Discord refuses a later first answer with 10062 and fails
the test), deferred where its work waits, then completed: the move applied, or refused with a
plain private "not saved, try again" once the lock outlasts the busy timeout (5 s)."""

from __future__ import annotations

import asyncio

from tests.support.e2e import hand_button, hand_messages, on_turn, settle, two_humans, wait_until
from tests.support.lamabot import bot_text
from tests.support.sqlite_lock import write_lock_held

DONE = 20.0  # seconds a test waits for a deferred answer to be completed


def other_player(fake, bot, game_id: int, user):
    view = bot.service.view(game_id)
    ids = [s.user_id for s in view.seats if s.user_id not in (None, user.id)]
    return fake.users_by_id[ids[0]]


def table_message(fake, channel):
    return [m for m in fake.public_messages(channel) if m.components_v2][-1]


async def move_count(bot, game_id: int) -> int:
    return len(await bot.store.games.list_moves(game_id))


def answered_in_time(*results) -> None:
    for result in results:
        assert result.refused is None, result.refused
        assert result.response_type is not None


async def test_a_4_s_lock_defers_every_write_shows_reads_at_once_and_applies_the_move(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _obs = on_turn(fake, bot, game_id)
    watcher = other_player(fake, bot, game_id, mover)
    before = await move_count(bot, game_id)
    async with write_lock_held(bot.settings.database_path, 4.0):
        draw, board, hand, choices = await asyncio.gather(
            fake.slash(mover, channel, "draw"),
            fake.slash(watcher, channel, "leaderboard"),
            fake.click(watcher, table_message(fake, channel), "My hand"),
            fake.autocomplete(mover, channel, "play", focused="card"),
        )
        answered_in_time(draw, board, hand)
        assert isinstance(choices, list)
        assert draw.deferred and draw.ephemeral  # "thinking…", privately
        # A read has a connection of its own: the board is shown at once, stall or not.
        assert not board.deferred and board.message.embeds
    shown = await draw.edited(timeout=DONE)
    assert shown.ephemeral and shown.custom_ids  # the mover's hand, with its buttons
    assert await move_count(bot, game_id) == before + 1
    await settle(bot, game_id)


async def test_a_dm_hand_press_during_a_4_s_lock_is_acknowledged_then_redrawn(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    game_id, _channel = await two_humans(fake, bot)
    mover, _obs = on_turn(fake, bot, game_id)
    dm = hand_messages(fake, mover, game_id)[-1]
    before = await move_count(bot, game_id)
    async with write_lock_held(bot.settings.database_path, 4.0):
        pressed = await fake.click(mover, dm, hand_button(dm, "draw"))
        answered_in_time(pressed)
        assert pressed.response_type == 6  # a silent acknowledgement: the DM stays as it was
    await pressed.edited(timeout=DONE)  # then redrawn in place, through the token
    assert await move_count(bot, game_id) == before + 1
    await settle(bot, game_id)


async def test_a_10_s_lock_refuses_the_move_plainly_and_a_retry_then_succeeds(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    await bot.service.flush_message_refs()  # the writer's batch (the deal shown) not locked out
    mover, _obs = on_turn(fake, bot, game_id)
    before = await move_count(bot, game_id)
    busy = bot_text("error.not_saved.busy", "en")
    async with write_lock_held(bot.settings.database_path, 10.0, "BEGIN EXCLUSIVE") as released:
        draw = await fake.slash(mover, channel, "draw")
        answered_in_time(draw)
        refusal = await draw.edited(timeout=DONE)  # after the 5 s busy timeout
        assert not released.is_set()
        assert refusal.ephemeral and busy in refusal.text and not refusal.custom_ids
        assert await move_count(bot, game_id) == before  # nothing saved
    retry = await fake.slash(mover, channel, "draw")
    answered_in_time(retry)
    assert retry.ephemeral and retry.message.custom_ids  # the hand: the move is made now
    assert await move_count(bot, game_id) == before + 1
    await settle(bot, game_id)


async def test_a_public_command_refused_after_a_stall_is_refused_privately(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    alice = fake.user("alice")
    busy = bot_text("error.not_saved.busy", "en")
    async with write_lock_held(bot.settings.database_path, 10.0):
        opened = await fake.slash(alice, channel, "lama new")
        answered_in_time(opened)
        assert opened.deferred and not opened.ephemeral  # a lobby would be public
        await wait_until(lambda: bool(opened.followups), timeout=DONE)
    refusal = opened.followups[0]
    assert refusal.ephemeral and busy in refusal.text
    assert opened.message is not None and opened.message.deleted  # no public "thinking…" left
    assert bot.service.game_in_channel(channel.id) is None
    lobby = await fake.slash(alice, channel, "lama new")  # the lock is gone: it opens
    answered_in_time(lobby)
    assert not lobby.ephemeral and lobby.embeds
