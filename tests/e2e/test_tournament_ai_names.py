"""A tournament's AI entrant is one player with one name: the same in the round's pairings,
at its table (and that table's moves) and in the standings, although it sits at a different
seat at each table. It is numbered among the tournament's AI entrants ("Llama-bot 2"); the AIs
that only fill a table's empty seats are numbered after them, so no two AIs at a table share
a name."""

from __future__ import annotations

import re

from hosting import Status
from store import GuildSettings
from tests.e2e.tournaments import embeds_saying, round_games, sign_up, signup_message
from tests.support.e2e import on_turn, settle, table

QUICK = {"ai_delay_s": 0.0, "target": 10, "turn_timeout_s": 3600}


def ai_names(text: str) -> list[str]:
    return sorted(set(re.findall(r"Llama-bot \d+", text)))


async def test_an_ai_entrant_has_one_name_in_the_pairings_at_its_table_and_in_the_standings(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, **QUICK))
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    await sign_up(fake, channel, alice, [alice, bob], ais=2, rounds=1)
    started = await fake.click(alice, signup_message(channel), "Start")
    assert started.refused is None
    tournament = await bot.tournaments.in_channel(channel.id)
    [game_id] = await round_games(bot, tournament.id, 1)
    await settle(bot, game_id)
    place = fake.channels[bot.service.view(game_id).shown_in]

    [pairings] = embeds_saying(channel, "Table 1:")
    entrants = ai_names(pairings)
    assert entrants == ["Llama-bot 1", "Llama-bot 2"], pairings  # by the order they were added
    assert ai_names(table(fake, place).text) == entrants  # at whatever seats they sit

    while bot.service.view(game_id).status is Status.RUNNING:
        user, _ = on_turn(fake, bot, game_id)
        await fake.slash(user, place, "quit")
        await settle(bot, game_id)
    await bot.tournaments.settle()  # the final standings follow the table's Game over
    [final] = embeds_saying(channel, "final standings")
    assert ai_names(final) == entrants, final
    assert ai_names(table(fake, place).text) == entrants  # the last round's result
    history = await fake.slash(alice, channel, "lama history")
    assert ai_names(history.text) == entrants, history.text  # and looking back
