"""Swiss tournaments on the loopback Discord: signing up, the rounds' games, playing to the end."""

from __future__ import annotations

import asyncio

from hosting import Status
from lama import QUIT
from store import GuildSettings
from tests.support.e2e import isolated, settle

CUP = isolated("Spring Cup")  # as the bot writes the name its organiser chose
QUICK = {"ai_delay_s": 0.0, "target": 10, "turn_timeout_s": 3600}


def signup_message(channel):
    return next(m for m in reversed(channel.messages)
                if any(c.startswith("lama:tn:") for c in m.custom_ids))


def embeds_saying(channel, text: str) -> list[str]:
    return [m.embed_text for m in channel.messages if text in m.embed_text]


async def sign_up(fake, channel, organiser, humans, *, ais: int, rounds: int) -> None:
    """`organiser` opens the Spring Cup; `humans` join by button, the organiser adds AIs."""
    opened = await fake.slash(organiser, channel, "lama tournament new", name="Spring Cup",
                              rounds=rounds, table_size=4)
    assert not opened.ephemeral and "Spring Cup" in opened.message.embed_text
    for user in humans:
        joined = await fake.click(user, signup_message(channel), "Join")
        assert joined.refused is None
    for _ in range(ais):
        await fake.click(organiser, signup_message(channel), "Add AI")


async def round_games(bot, tournament_id: int, number: int) -> list[int]:
    """The games of round `number`, once every one of its tables is open."""
    async def opened() -> list[int | None]:
        outcomes = await bot.store.tournaments.outcomes(tournament_id)
        return [o.table.game_id for o in outcomes if o.table.round == number]

    for _ in range(400):
        games = await opened()
        if games and None not in games:
            return [g for g in games if g is not None]
        await asyncio.sleep(0.05)
    raise AssertionError(f"round {number}'s tables did not open")


async def play_to_its_end(bot, game_id: int) -> None:
    """The humans quit whenever they are on turn (the AIs play) until the game is over."""
    while True:
        await settle(bot, game_id)
        view = bot.service.view(game_id)
        if view.status is not Status.RUNNING:
            return
        await bot.service.human_move(game_id, view.seats[view.current_seat].user_id, QUIT)


async def one_table_cup_played(fake, bot, *, render_delay: float = 0.0):
    """Alice, Bob and Carol play a one-round Spring Cup at one table to its end (the
    renderer flushing each game `render_delay` after its change): the channel, and the
    table's "Game over" message."""
    channel = fake.channel("lama")
    humans = [fake.user(n) for n in ("alice", "bob", "carol")]
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, **QUICK))
    await sign_up(fake, channel, humans[0], humans, ais=0, rounds=1)
    await fake.click(humans[0], signup_message(channel), "Start")
    tournament = await bot.tournaments.in_channel(channel.id)
    (game_id,) = await round_games(bot, tournament.id, 1)
    bot.renderer.queue.coalesce_delay = render_delay
    await play_to_its_end(bot, game_id)
    await bot.tournaments.settle()
    await bot.renderer.flush_all()
    place = fake.channels[bot.service.view(game_id).shown_in]
    (over,) = [m for m in fake.public_messages(place) if "Game over" in m.text]
    return channel, over


async def one_table_under_way(fake, bot):
    """Alice organises the Spring Cup without playing; Bob, Carol and Dave play its one
    table (with an AI), in a thread: the table's host is one of them."""
    channel, organiser = fake.channel("lama"), fake.user("alice")
    entrants = [fake.user(n) for n in ("bob", "carol", "dave")]
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, **QUICK))
    await sign_up(fake, channel, organiser, entrants, ais=1, rounds=2)
    await fake.click(organiser, signup_message(channel), "Start")
    tournament = await bot.tournaments.in_channel(channel.id)
    (game_id,) = await round_games(bot, tournament.id, 1)
    await settle(bot, game_id)
    view = bot.service.view(game_id)
    thread = fake.channels[view.channel_id]
    assert thread.thread is not None and view.host_id in {u.id for u in entrants}
    return tournament.id, game_id, channel, thread, fake.users_by_id[view.host_id]
