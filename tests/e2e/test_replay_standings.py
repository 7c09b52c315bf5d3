"""/lama replay ends with the same final standings as the game's "Game over" post: the seats
as they were rated, a player an AI finished for after time-outs listed last with the same
note, though their AI finished with fewer points than the player who stayed (the replay
listed them by points alone, first, without a word)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import i18n
from hosting import FakeClock
from hosting.options import TIMEOUTS_BEFORE_AI
from tests.e2e.games import alice_times_out_and_bob_quits_to_the_end, field
from tests.support.e2e import two_humans, without_isolates


async def replay_game_over(fake, user, channel, game_id: int, locale: str) -> str:
    """The replay's "Game over" field, paging on with ▶ to the page that holds it."""
    shown = await fake.slash(user, channel, "lama replay", game_id=game_id)
    message = shown.message
    for _ in range(50):
        try:
            return field(message, i18n.t("game.over", locale))
        except LookupError:
            on = next(b for b in message.buttons if b.custom_id and ":rp:n:" in b.custom_id)
            assert not on.disabled, message.embed_text
            message = (await fake.click(user, message, on.custom_id)).message
    raise AssertionError("no Game over in the replay")


@pytest.mark.parametrize("bot_clock", [FakeClock()])
@pytest.mark.parametrize("locale", ["en", "cs", "es"])
async def test_the_replay_lists_a_seat_timed_out_into_an_ai_last_as_game_over_did(
    fake_discord, lamabot, bot_clock, locale
):
    fake, bot, clock = fake_discord, lamabot, bot_clock
    settings = await bot.service.guild_settings(fake.guild.id)
    await bot.service.save_guild_settings(replace(settings, locale=locale, ai_delay_s=0.0))
    game_id, channel = await two_humans(fake, bot, seed=1, turn_timeout=10, target=60)
    await alice_times_out_and_bob_quits_to_the_end(fake, bot, clock, game_id, bob_draws=True)
    await bot.renderer.flush_all()
    view = bot.service.view(game_id)
    alice, bob = view.seats[0].score, view.seats[1].score
    assert alice < bob  # by points alone, Alice's seat would come first and win

    reader = fake.user("alice")
    reader.locale = {"en": "en-US", "cs": "cs", "es": "es-ES"}[locale]  # the replay speaks hers
    lines = without_isolates(await replay_game_over(fake, reader, channel, game_id,
                                                    locale)).splitlines()
    note = i18n.t("game.timed_out_counts_as_last", locale, count=TIMEOUTS_BEFORE_AI)
    assert lines == [
        i18n.t("game.winner", locale, name="Bob", count=bob),
        i18n.t("game.standing", locale, rank=1, name="Bob", count=bob),
        i18n.t("game.standing", locale, rank=2, name="Alice", count=alice) + f" · {note}",
    ]
    end = next(m for m in reversed(fake.public_messages(channel))
               if i18n.t("game.standings", locale) in m.embed_text)
    over = without_isolates(field(end, i18n.t("game.standings", locale))).splitlines()
    assert [line.split(":")[0].replace("🤖 ", "") for line in over] == [
        line.split(":")[0] for line in lines[1:]]  # the same places, in the same order
