"""A player who plays from the table (slash commands, My hand) learns it is their turn from
the table and their private hand; a DM tells them only when they may not be watching: they
have not moved or looked at their hand in the game for a minute (docs/turn-pings.md). Before,
they got a "🔔 It's your turn" DM on every turn, ten in one round.

The half-time reminder speaks to its reader in their DM ("It's still your turn"), without
mentioning them there; only in the channel, where everyone reads it, does it name them.

The bot's clock is a FakeClock here: a minute passes only when a test says so."""

from __future__ import annotations

import pytest

from cogs.render.ledger import AT_TABLE_FOR
from hosting import FakeClock
from hosting.views import NoticeKind
from tests.support.e2e import (
    OnTurn,
    count_rest_slots,
    hold_rest_slots,
    on_turn,
    settle,
    table,
    two_humans_on_turn,
    wait_until,
)

pytestmark = pytest.mark.parametrize("bot_clock", [FakeClock()])


def turn_pings(fake, user) -> list:
    return [m for m in fake.dms(user) if "It's your turn" in (m.content or "")]


async def draw_by_slash(fake, bot, game: OnTurn):
    """Whoever is on turn draws with /draw; returns who that was."""
    user, _ = on_turn(fake, bot, game.game_id)
    drawn = await fake.slash(user, game.channel, "draw")
    assert drawn.ephemeral and drawn.message.custom_ids, drawn.text  # their hand
    await settle(bot, game.game_id)
    return user


async def a_minute_between_turns(fake, bot, clock, *, looking: bool):
    """Two humans: the first draws by /draw, a minute passes (at its end, if `looking`, they
    open My hand), the other draws. Returns the game and the first, on turn again."""
    game = await two_humans_on_turn(fake, bot)
    first = await draw_by_slash(fake, bot, game)
    clock.advance(AT_TABLE_FOR)
    if looking:
        assert (await fake.click(first, table(fake, game.channel), "My hand")).ephemeral
    await draw_by_slash(fake, bot, game)
    assert on_turn(fake, bot, game.game_id)[0] == first
    return game, first


async def test_a_slash_player_at_the_table_gets_no_dm_on_their_turns(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game = await two_humans_on_turn(fake, bot)
    movers = [await draw_by_slash(fake, bot, game) for _ in range(6)]
    players = {mover.id: mover for mover in movers}.values()
    assert len(players) == 2  # each had turns after their first slash move
    for player in players:
        assert turn_pings(fake, player) == []


async def test_a_slash_player_away_for_a_minute_is_pinged_when_their_turn_comes(
    fake_discord, lamabot, bot_clock
) -> None:
    fake = fake_discord
    game, first = await a_minute_between_turns(fake, lamabot, bot_clock, looking=False)
    (ping,) = turn_pings(fake, first)
    assert ping.buttons == [] and str(table(fake, game.channel).id) in ping.content


async def test_a_turn_ping_links_the_table_under_its_words(
    fake_discord, lamabot, bot_clock
) -> None:
    """A masked link, as the other notes have: the words open the table, no bare address."""
    fake = fake_discord
    game, first = await a_minute_between_turns(fake, lamabot, bot_clock, looking=False)
    (ping,) = turn_pings(fake, first)
    shown = table(fake, game.channel)
    link = f"https://discord.com/channels/{fake.guild.id}/{game.channel.id}/{shown.id}"
    assert ping.content.startswith(f"🔔 [It's your turn at the LAMA table]({link})")


async def test_looking_at_the_hand_counts_as_being_at_the_table(
    fake_discord, lamabot, bot_clock
) -> None:
    _game, first = await a_minute_between_turns(fake_discord, lamabot, bot_clock, looking=True)
    assert turn_pings(fake_discord, first) == []


def reminders(messages) -> list:
    return [m for m in messages if "still your turn" in (m.content or "")]


async def half_the_turn_passes(fake, bot, clock) -> OnTurn:
    """Two humans with a 10-second turn; the player on turn lets 5 seconds go by."""
    game = await two_humans_on_turn(fake, bot, turn_timeout=10)
    clock.advance(5)
    await bot.service.fire_due_timers()
    await bot.renderer.flush_all()
    return game


async def test_a_reminder_by_dm_does_not_mention_its_reader(
    fake_discord, lamabot, bot_clock
) -> None:
    fake = fake_discord
    game = await half_the_turn_passes(fake, lamabot, bot_clock)
    (reminder,) = reminders(fake.dms(game.mover))
    assert "5 seconds left" in reminder.content, reminder.content
    assert game.mover.mention not in reminder.content and "<@" not in reminder.content


async def test_a_reminder_in_the_channel_mentions_its_player(
    fake_discord, lamabot, bot_clock
) -> None:
    fake, bot = fake_discord, lamabot
    for user in (fake.user("alice"), fake.user("bob")):  # no turn DMs: the channel tells
        assert (await fake.slash(user, fake.channel("lama"), "lama notify",
                                 turn_dms=False)).ephemeral
    game = await half_the_turn_passes(fake, bot, bot_clock)
    (reminder,) = reminders(fake.public_messages(game.channel))
    assert reminder.content.startswith(game.mover.mention), reminder.content
    assert reminders(fake.dms(game.mover)) == []


async def turn_dms_off(fake) -> None:
    for user in (fake.user("alice"), fake.user("bob")):  # no turn DMs: the channel tells
        assert (await fake.slash(user, fake.channel("lama"), "lama notify",
                                 turn_dms=False)).ephemeral


def reminders_told(bot) -> list:
    """The reminders the service tells from now on (whether or not they are shown)."""
    told: list = []

    async def heard(update) -> None:
        told.extend(n for n in update.notices if n.kind is NoticeKind.REMINDER)

    bot.service.add_listener(heard)
    return told


async def reminded_then_moves_in_one_flush(fake, bot, clock) -> OnTurn:
    """Two humans with a 10-second turn: half of it passes and the reminder is told, then
    the player on turn draws by /draw before the renderer flushes: one flush shows both."""
    game = await two_humans_on_turn(fake, bot, turn_timeout=10)
    told = reminders_told(bot)
    bot.renderer.queue.hold()  # flushes wait (as for a restart) until both are in
    clock.advance(5)
    await bot.service.fire_due_timers()
    assert [n.user_id for n in told] == [game.mover.id]
    assert (await fake.slash(game.mover, game.channel, "draw")).ephemeral
    bot.renderer.queue.release()
    await settle(bot, game.game_id)
    return game


async def test_a_reminder_shown_with_the_players_later_move_is_not_posted_in_the_channel(
    fake_discord, lamabot, bot_clock
) -> None:
    fake = fake_discord
    await turn_dms_off(fake)
    game = await reminded_then_moves_in_one_flush(fake, lamabot, bot_clock)
    assert reminders(fake.public_messages(game.channel)) == []


async def test_a_reminder_shown_with_the_players_later_move_is_not_sent_by_dm(
    fake_discord, lamabot, bot_clock
) -> None:
    fake = fake_discord
    game = await reminded_then_moves_in_one_flush(fake, lamabot, bot_clock)
    assert reminders(fake.dms(game.mover)) == []


async def test_a_channel_reminder_waiting_behind_the_table_is_dropped_once_its_player_moved(
    fake_discord, lamabot, bot_clock
) -> None:
    """A busy process: the reminder waits in the table's queue behind an edit that waits for
    its slot, and its player moves meanwhile (a later flush). When its turn to be posted
    comes, the turn it speaks of has passed: nothing is posted, and it takes none of the
    channel's few posts (5 per 5 s) from the table."""
    fake, bot, clock = fake_discord, lamabot, bot_clock
    await turn_dms_off(fake)
    game = await two_humans_on_turn(fake, bot)
    told = reminders_told(bot)
    channel = game.channel
    released = hold_rest_slots(bot, lambda _p, where, kind: where == channel.id and kind == "edit")
    posts = count_rest_slots(bot, lambda _p, where, kind: where == channel.id and kind == "create")
    assert (await fake.slash(game.mover, channel, "draw")).ephemeral
    await wait_until(lambda: bot.renderer.tables.busy_with(game.game_id))  # its edit waits
    reminded, _ = on_turn(fake, bot, game.game_id)
    clock.advance(bot.service.view(game.game_id).options.turn_timeout * 0.6)
    await bot.service.fire_due_timers()
    await wait_until(lambda: game.game_id not in bot.renderer.queue.flushing)  # queued, waiting
    assert [n.user_id for n in told] == [reminded.id]
    assert (await fake.slash(reminded, channel, "draw")).ephemeral
    await wait_until(lambda: game.game_id not in bot.renderer.queue.flushing)
    released.set()
    await settle(bot, game.game_id)
    assert reminders(fake.public_messages(channel)) == []
    assert posts == []
