"""A tournament's standings on the loopback Discord, asked for in the middle of a round.

Checking the standings never posts in the channel: `/lama tournament standings` answers the
one who asks, privately, exactly as the Standings button under a table's "Game over" does
(the round posts and the final standings are the tournament's public record). Mid-round,
the entrants whose table is still playing are marked so, below those on equal points who
finished the round."""

from __future__ import annotations

from store import GuildSettings
from tests.e2e.tournaments import CUP, QUICK, play_to_its_end, round_games, sign_up


async def one_table_over(fake, bot):
    """Six humans, two tables of three in round 1; the first table plays to its end. The
    first table's "Game over" message, its players and the other table's."""
    channel = fake.channel("lama")
    humans = [fake.user(n) for n in ("alice", "bob", "carol", "dave")] + fake.add_users(2)
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, **QUICK))
    await sign_up(fake, channel, humans[0], humans, ais=0, rounds=2)
    assert (await fake.click(humans[0], signup_message_of(channel), "Start")).refused is None
    tournament = await bot.tournaments.in_channel(channel.id)
    first, second = await round_games(bot, tournament.id, 1)
    await play_to_its_end(bot, first)
    place = fake.channels[bot.service.view(first).shown_in]
    (over,) = [m for m in fake.public_messages(place) if "Game over" in m.text]

    def players(game_id):
        return [s.user_id for s in bot.service.view(game_id).seats if s.user_id]

    return channel, over, players(first), players(second)


def signup_message_of(channel):
    return next(m for m in reversed(channel.messages)
                if any(c.startswith("lama:tn:") for c in m.custom_ids))


def standing_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.split(" ", 1)[0].rstrip(".").isdigit()]


async def test_the_standings_command_answers_privately_like_the_button(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    channel, over, _, _ = await one_table_over(fake, bot)
    before = len(fake.public_messages(channel))
    asked = await fake.slash(fake.user("bob"), channel, "lama tournament standings")
    pressed = await fake.click(fake.user("bob"), over, "Standings")
    assert asked.ephemeral and pressed.ephemeral
    assert f"{CUP}: standings" in asked.text
    assert standing_lines(asked.text) == standing_lines(pressed.text)
    assert len(fake.public_messages(channel)) == before  # nothing posted in the channel


async def test_mid_round_the_standings_mark_who_is_still_playing_below_who_finished(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    _, over, finished, playing = await one_table_over(fake, bot)
    pressed = await fake.click(fake.user("carol"), over, "Standings")
    lines = standing_lines(pressed.text)
    assert len(lines) == 6, pressed.text
    assert mentioned(lines[:3], finished) == set(finished)  # 0 points or more, all above
    assert mentioned(lines[3:], playing) == set(playing)
    assert all("playing" in line for line in lines[3:])
    assert not any("playing" in line for line in lines[:3])


def mentioned(lines: list[str], users: list[int]) -> set[int]:
    return {u for u in users if any(f"<@{u}>" in line for line in lines)}


async def test_a_table_that_ends_before_the_others_says_the_next_round_waits_for_them(
    fake_discord, lamabot
):
    channel, over, _, _ = await one_table_over(fake_discord, lamabot)
    assert f"next round's tables are posted in <#{channel.id}> once every table of this " \
        "round has finished" in over.text
    assert "was the last" not in over.text


async def test_the_last_of_several_tables_to_end_says_the_round_ended_with_it(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    channel, _, _, _ = await one_table_over(fake, bot)
    tournament = await bot.tournaments.in_channel(channel.id)
    _, second = await round_games(bot, tournament.id, 1)
    await play_to_its_end(bot, second)
    place = fake.channels[bot.service.view(second).shown_in]
    (over,) = [m for m in fake.public_messages(place) if "Game over" in m.text]
    assert f"Table 2 was the last of this round: the next round's tables are in <#{channel.id}>" \
        in over.text
