"""A retry renders every step it owes, not only the newest state (issue 35, point 2): Discord
answers every call of one kind with 429 (a storm) while the game moves on past the step the
storm hit (a round's close, the next round's table, the game's end), and for as long as the
bot's own retries after 1 and 2 s meet it too: several seconds. Once the storm is over, every
round has one table, each round that ended shows its result with no buttons, the round being
played has the live one, and a game that ended says so once."""

from __future__ import annotations

import re

from lama import events as ev
from tests.e2e.round_tables import quit_for, quit_until_a_quit_would_end
from tests.support.crash import rematch_posts
from tests.support.e2e import two_humans, wait_until
from tests.support.shown import TABLE_BUTTONS

CREATE = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
STORM = 600.0  # seconds: the test calms it (`weathered`)
LONG = 200  # points: a game that lasts the rounds these tests play
WAIT = 60.0  # seconds: the storm, the retry after it, a loaded machine


def tables_of(fake, channel, game_id: int, round_number: int) -> list:
    title = re.compile(rf": round {round_number}\b")
    return [m for m in fake.public_messages(channel) if m.components_v2
            and f"Game #{game_id}" in m.text and title.search(m.text)]


async def next_round(bot, game_id: int) -> None:
    """Seats quit until a round ends (the next one is dealt, or the game ends); at once, not
    waiting for anything to show."""
    while not any(isinstance(e, ev.RoundEnded) for e in await quit_for(bot, game_id)):
        pass


async def weathered(fake, caplog) -> None:
    """Once the bot's first try and its own retries after 1 and 2 s met the storm (the third
    retry is due), it ends."""
    def third_retry_due() -> bool:
        return any("; retry 3 in" in r.getMessage() for r in caplog.records)

    await wait_until(third_retry_due, timeout=WAIT)
    fake.calm()


async def all_shown(fake, bot) -> None:
    """Every committed move is marked shown."""
    async def nothing_pending() -> bool:
        return not await bot.store.renders.pending()

    while True:
        await bot.renderer.flush_all()
        if not bot.renderer.showing() and await nothing_pending():
            return
        await wait_until(lambda: not bot.renderer.showing(), timeout=WAIT)


def settled(fake, bot, channel, game_id: int) -> None:
    """One table per round; every ended round's closed with its result, the current one live."""
    view = bot.service.view(game_id)
    running = view.status.value == "running"
    for number in range(1, view.round_number + 1):
        tables = tables_of(fake, channel, game_id, number)
        assert len(tables) == 1, f"round {number}: {len(tables)} tables"
        (table,) = tables
        if running and number == view.round_number:
            assert [b.label for b in table.buttons if not b.disabled] == TABLE_BUTTONS, table.text
            assert f"Round {number} is over" not in table.text
        else:
            assert table.buttons == [], f"round {number}'s table is live: {table.text}"
            assert f"Round {number} is over" in table.text, table.text


async def test_a_rounds_close_met_by_a_storm_is_closed_after_two_more_rounds(
    fake_discord, lamabot, caplog
):
    """Round 1's table cannot be edited while rounds 2 and 3 begin: the retry closes it."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, target=LONG)
    (first,) = tables_of(fake, channel, game_id, 1)
    await quit_until_a_quit_would_end(bot, game_id, ev.RoundEnded)
    fake.rate_limit_for(EDIT, STORM, message_id=first.id)
    await quit_for(bot, game_id)
    await next_round(bot, game_id)
    assert bot.service.view(game_id).round_number == 3
    await weathered(fake, caplog)
    await all_shown(fake, bot)
    settled(fake, bot, channel, game_id)


async def test_the_next_rounds_table_met_by_a_storm_is_posted_after_it(
    fake_discord, lamabot, caplog
):
    """No post in the channel goes through while round 2 is dealt and played to its end."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, target=LONG)
    await quit_until_a_quit_would_end(bot, game_id, ev.RoundEnded)
    fake.rate_limit_for(CREATE, STORM, channel_id=channel.id)
    await quit_for(bot, game_id)
    await next_round(bot, game_id)
    assert bot.service.view(game_id).round_number == 3
    await weathered(fake, caplog)
    await all_shown(fake, bot)
    settled(fake, bot, channel, game_id)


async def test_a_storm_over_every_table_call_leaves_no_round_live(
    fake_discord, lamabot, caplog
):
    """Neither posts nor edits go through in the channel while rounds 2 and 3 are played."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, target=LONG)
    await quit_until_a_quit_would_end(bot, game_id, ev.RoundEnded)
    fake.rate_limit_for(CREATE, STORM, channel_id=channel.id)
    fake.rate_limit_for(EDIT, STORM, channel_id=channel.id)
    await quit_for(bot, game_id)
    await next_round(bot, game_id)
    await next_round(bot, game_id)
    await weathered(fake, caplog)
    await all_shown(fake, bot)
    settled(fake, bot, channel, game_id)


async def test_the_game_over_met_by_a_storm_is_posted_once_and_no_table_is_live(
    fake_discord, lamabot, caplog
):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, target=10)
    await quit_until_a_quit_would_end(bot, game_id, ev.GameEnded)
    fake.rate_limit_for(CREATE, STORM, channel_id=channel.id)
    fake.rate_limit_for(EDIT, STORM, channel_id=channel.id)
    await quit_for(bot, game_id)
    assert bot.service.view(game_id).status.value == "finished"
    await weathered(fake, caplog)
    await all_shown(fake, bot)
    settled(fake, bot, channel, game_id)
    assert len(rematch_posts(fake, channel, game_id)) == 1
