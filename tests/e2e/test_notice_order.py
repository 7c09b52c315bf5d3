"""The notices between the tables come in the order things happened, and before the table
that shows what they tell: "Bob ran out of time", "Bob left the game" and a turn reminder the
channel hears are posted by the game's table task, in turn with its tables. So hand messages
that are slow to go out (DMs wait behind turn pings and Discord's limits when the bot is busy)
cannot let the next round's table overtake a notice, a table edit that waits for its slot
cannot show a time-out before it is told, and a reminder cannot overtake the table it follows;
and nothing waits for anything more than before."""

from __future__ import annotations

import json

import pytest

from hosting import FakeClock
from lama import QUIT, Game
from tests.support.crash import tables_of_round
from tests.support.e2e import (
    find_seed,
    hold_rest_slots,
    on_turn,
    open_game,
    settle,
    table,
    use_seed,
    wait_until,
)

CREATE = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def hands_go_out_after_the_tables(bot) -> None:
    """Every flush shows the hands only once the game's table jobs ran out: as when the DMs
    wait for the REST budget while the tables' calls go through."""
    renderer = bot.renderer
    show_hands = renderer.flush.show_hands

    async def late(work, view, locale) -> None:
        await renderer.tables.wait_idle(view.game_id)
        await show_hands(work, view, locale)

    renderer.flush.show_hands = late


def said(call) -> str:
    return json.dumps(call.body, ensure_ascii=False)


def channel_story(fake, since: int, channel, table_message, told: str, shown: str) -> list[str]:
    """What the channel saw after call `since`, in order: "told" for the post saying `told`,
    "shown" for an edit of the table whose text has `shown`, "edit" for its other edits."""
    story = []
    for call in fake.rest_calls()[since:]:
        if call.route == CREATE and call.params["channel_id"] == str(channel.id):
            if told in said(call):
                story.append("told")
        elif call.route == EDIT and call.params["message_id"] == str(table_message.id):
            story.append("shown" if shown in said(call) else "edit")
    return story


async def three_humans(fake, bot):
    channel = fake.channel("lama")
    users = fake.user("alice"), fake.user("bob"), fake.user("carol")
    game_id = await open_game(fake, bot, channel, *users)
    return game_id, channel


async def time_out(bot, clock, game_id: int) -> None:
    clock.advance(bot.service.view(game_id).options.turn_timeout)
    await bot.service.fire_due_timers()


def the_other_plays_on_after_the_starter_quits(game: Game) -> bool:
    """Two players: the starter quits and the other, alone, still has a card to play (not
    forced out at once): their time-out is what ends round 1 (a deal for `find_seed`)."""
    game.apply(game.current_seat, QUIT)
    return game.round_number == 1


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_time_out_that_ends_a_round_is_told_above_the_next_rounds_table(
    fake_discord, lamabot, bot_clock
):
    fake, bot, clock = fake_discord, lamabot, bot_clock
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    use_seed(bot, find_seed("classic", 2, the_other_plays_on_after_the_starter_quits))
    game_id = await open_game(fake, bot, channel, alice, bob, variant="classic")
    quitter, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(quitter, channel, "quit")).ephemeral
    await settle(bot, game_id)
    late, _ = on_turn(fake, bot, game_id)
    assert late is not quitter and bot.service.view(game_id).round_number == 1
    hands_go_out_after_the_tables(bot)
    await time_out(bot, clock, game_id)
    await bot.renderer.flush_all()

    assert bot.service.view(game_id).round_number == 2
    public = fake.public_messages(channel)
    told = [i for i, m in enumerate(public) if "ran out of time" in m.text]
    (next_table,) = [public.index(m) for m in tables_of_round(fake, channel, game_id, 2)]
    assert len(told) == 1 and told[0] < next_table, [m.text[:60] for m in public]


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_time_out_is_told_before_the_table_shows_it(fake_discord, lamabot, bot_clock):
    fake, bot, clock = fake_discord, lamabot, bot_clock
    game_id, channel = await three_humans(fake, bot)
    live, since = table(fake, channel), len(fake.rest_calls())
    await time_out(bot, clock, game_id)
    await bot.renderer.flush_all()

    story = channel_story(fake, since, channel, live, "ran out of time", ": quit (")
    assert "shown" in story and story.index("told") < story.index("shown"), story


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_time_out_is_told_before_a_table_edit_that_waited_for_its_slot_shows_it(
    fake_discord, lamabot, bot_clock
):
    """A busy process: the table's edit for the move before waits for the channel's edit
    slot when the time-out comes. That waiting edit takes in the newer state only as long as
    no notice stands between them."""
    fake, bot, clock = fake_discord, lamabot, bot_clock
    game_id, channel = await three_humans(fake, bot)
    live, since = table(fake, channel), len(fake.rest_calls())
    released = hold_rest_slots(bot, lambda _p, where, kind: where == channel.id and kind == "edit")
    mover, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(mover, channel, "draw")).ephemeral
    await wait_until(lambda: bot.renderer.tables.busy_with(game_id))  # its edit waits
    await time_out(bot, clock, game_id)
    await wait_until(lambda: game_id not in bot.renderer.queue.flushing)  # the time-out queued
    released.set()
    await bot.renderer.flush_all()

    story = channel_story(fake, since, channel, live, "ran out of time", ": quit (")
    assert "shown" in story and story.index("told") < story.index("shown"), story


async def test_a_player_who_leaves_is_told_before_the_table_shows_the_ai_in_their_seat(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    game_id, channel = await three_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    leaver = next(u for u in (fake.user("bob"), fake.user("alice")) if u is not mover)
    live, since = table(fake, channel), len(fake.rest_calls())
    assert (await fake.slash(leaver, channel, "lama leave")).ephemeral
    await settle(bot, game_id)

    story = channel_story(fake, since, channel, live, "left the game", "🤖")
    assert "shown" in story and story.index("told") < story.index("shown"), story


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_reminder_in_the_channel_comes_after_the_table_edit_before_it(
    fake_discord, lamabot, bot_clock
):
    """Players without turn DMs are reminded in the channel, in turn with the table: the
    table that says whose turn it is, then "it's still your turn", however long the table's
    edit waited for its slot."""
    fake, bot, clock = fake_discord, lamabot, bot_clock
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    for user in (alice, bob):
        await fake.slash(user, fake.channel("general"), "lama notify", turn_dms=False)
    game_id = await open_game(fake, bot, channel, alice, bob)
    live, since = table(fake, channel), len(fake.rest_calls())
    released = hold_rest_slots(bot, lambda _p, where, kind: where == channel.id and kind == "edit")
    mover, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(mover, channel, "draw")).ephemeral
    await wait_until(lambda: bot.renderer.tables.busy_with(game_id))  # its edit waits
    reminded, _ = on_turn(fake, bot, game_id)
    clock.advance(bot.service.view(game_id).options.turn_timeout * 0.6)
    await bot.service.fire_due_timers()
    await wait_until(lambda: game_id not in bot.renderer.queue.flushing)  # the reminder is due
    released.set()
    await bot.renderer.flush_all()

    story = channel_story(fake, since, channel, live, "still your turn", "drew a card")
    assert story == ["shown", "told"], story
    assert reminded.mention in [m.text for m in fake.public_messages(channel)][-1]


async def test_closed_dms_are_told_below_the_table_whose_my_hand_they_point_to(
    fake_discord, lamabot
):
    """Bob's deal DM is refused while the first table waits for its slot (a busy process):
    "press My hand under it" still comes below that table, in turn with the table's jobs."""
    fake, bot = fake_discord, lamabot
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    fake.close_dms(bob)
    game_id = await open_game(fake, bot, channel, alice, bob, start=False)
    waited: list[str] = []

    def first_post_in_the_channel(_priority, where, kind) -> bool:
        if where == channel.id and kind == "create" and not waited:
            waited.append(kind)
            return True
        return False

    released = hold_rest_slots(bot, first_post_in_the_channel)
    assert (await fake.slash(alice, channel, "lama start")).ephemeral
    flushing = bot.renderer.queue.flushing
    await wait_until(lambda: bool(waited) and game_id not in flushing)  # hands out
    released.set()
    await bot.renderer.flush_all()

    public = fake.public_messages(channel)
    told = [i for i, m in enumerate(public) if "I can't send you DMs" in m.text]
    first_table = public.index(table(fake, channel))
    assert len(told) == 1 and first_table < told[0], [m.text[:60] for m in public]
