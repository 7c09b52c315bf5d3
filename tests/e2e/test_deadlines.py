"""Time told right (issue 34, point 2): the table shows the turn's deadline as a Discord
timestamp (`<t:UNIX:R>`: each reader's client counts it down, in their language, with no edits),
and a half-time reminder says the time really left when it goes out, not when it fell due.
Before, the table showed no deadline, and a reminder shown late (after a restart) said
"5 seconds left" with 2.5 s left.

The bot's clock is a FakeClock here: time passes only when a test says so."""

from __future__ import annotations

import pytest

from hosting import FakeClock
from tests.support.e2e import on_turn, settle, table, two_humans_on_turn

pytestmark = pytest.mark.parametrize("bot_clock", [FakeClock()])


async def test_the_table_shows_when_the_turn_runs_out(fake_discord, lamabot, bot_clock):
    fake, bot = fake_discord, lamabot
    started = bot_clock.now()
    game = await two_humans_on_turn(fake, bot, turn_timeout=30)
    assert f"Time runs out <t:{round(started + 30)}:R>" in table(fake, game.channel).text
    bot_clock.advance(12)
    assert (await fake.slash(game.mover, game.channel, "draw")).ephemeral
    await settle(bot, game.game_id)
    shown = table(fake, game.channel).text
    assert f"<t:{round(started + 42)}:R>" in shown and f"<t:{round(started + 30)}:R>" not in shown


async def test_a_reminder_shown_late_says_the_time_really_left(fake_discord, lamabot, bot_clock):
    fake, bot = fake_discord, lamabot
    game = await two_humans_on_turn(fake, bot, turn_timeout=10)
    bot.renderer.queue.hold()  # as after a restart: shown once the bot is connected again
    bot_clock.advance(5)
    await bot.service.fire_due_timers()
    bot_clock.advance(2.5)
    bot.renderer.queue.release()
    await settle(bot, game.game_id)
    assert on_turn(fake, bot, game.game_id)[0] == game.mover
    (reminder,) = [m for m in fake.dms(game.mover) if "still your turn" in (m.content or "")]
    assert "3 seconds left" in reminder.content, reminder.content
