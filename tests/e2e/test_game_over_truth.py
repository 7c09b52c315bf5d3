"""A game an AI finished for a player who ran out of time, as the channel reads it (issue 34):
the third time-out names the player (no 🤖 yet), the takeover line comes next, and "Game
over" lists the seat last, with its points, saying it timed out and an AI finished the game
(never that they left), in the server's language."""

from __future__ import annotations

from dataclasses import replace

import pytest

import i18n
from hosting import FakeClock
from hosting.options import TIMEOUTS_BEFORE_AI
from tests.e2e.games import alice_times_out_and_bob_quits_to_the_end, field
from tests.support.e2e import two_humans, without_isolates


def public_lines(fake, channel) -> list[str]:
    return [without_isolates(m.text) for m in fake.public_messages(channel)
            if not m.components_v2 and not m.embeds]


@pytest.mark.parametrize("bot_clock", [FakeClock()])
@pytest.mark.parametrize("locale", ["en", "cs", "es"])
async def test_game_over_after_time_outs_lists_the_seat_last_and_says_it_timed_out(
    fake_discord, lamabot, bot_clock, locale
):
    fake, bot, clock = fake_discord, lamabot, bot_clock
    settings = await bot.service.guild_settings(fake.guild.id)
    await bot.service.save_guild_settings(replace(settings, locale=locale, ai_delay_s=0.0))
    game_id, channel = await two_humans(fake, bot, seed=3, turn_timeout=10, target=60)
    await alice_times_out_and_bob_quits_to_the_end(fake, bot, clock, game_id)
    await bot.renderer.flush_all()

    timed_out = i18n.t("timer.timeout", locale, name="Alice")
    handed = i18n.t("timer.handed_to_ai", locale, name="Alice", count=TIMEOUTS_BEFORE_AI)
    lines = public_lines(fake, channel)
    assert lines.count(timed_out) == TIMEOUTS_BEFORE_AI, lines
    assert lines.index(handed) == max(i for i, x in enumerate(lines) if x == timed_out) + 1
    assert not any("🤖 Alice" in line for line in lines[:lines.index(handed)]), lines

    end = next(m for m in reversed(fake.public_messages(channel))
               if i18n.t("game.standings", locale) in m.embed_text)
    first, last = without_isolates(field(end, i18n.t("game.standings", locale))).splitlines()
    view = bot.service.view(game_id)
    bob, alice = view.seats[1].score, view.seats[0].score
    assert first.startswith(i18n.t("game.standing", locale, rank=1, name="Bob", count=bob))
    note = i18n.t("game.timed_out_counts_as_last", locale, count=TIMEOUTS_BEFORE_AI)
    alice_line = i18n.t("game.standing", locale, rank=2, name="🤖 Alice", count=alice)
    assert last.startswith(f"{alice_line} · {note} · "), last  # then her rating
    winner = i18n.t("game.winner", locale, name="Bob", count=bob)
    assert without_isolates(end.embeds[0]["description"]) == winner
