"""The game's end reads top to bottom: the last round's closed table, then "Game over" with the
standings. The table is shown by a task of its own (cogs/render/tables.py) and the game-end post by
the renderer's flush, so a slow table call must not let "Game over" overtake it.

The table's calls are held as long as they can be: until the renderer waits for the game's
tables (which it must, before the game's thread is archived). A renderer that posted "Game
over" first would have posted it by then, above every table still to come."""

from __future__ import annotations

import asyncio

from hosting import Status
from lama import QUIT
from store import GuildSettings
from tests.support.e2e import humans_turn_or_over, move_in_progress, wait_until


def hold_tables_until_waited_for(bot) -> asyncio.Event:
    """Every table call of the bot waits until the renderer waits for the tables; returns
    the event that lets them go."""
    tables, released = bot.renderer.tables, asyncio.Event()
    do, wait_idle = tables._do, tables.wait_idle

    async def held(job) -> None:
        await released.wait()
        await do(job)

    async def waited_for(*args) -> None:
        released.set()
        await wait_idle(*args)

    tables._do, tables.wait_idle = held, waited_for
    return released


async def alice_quits_until_the_ais_end_the_game(bot, game_id: int, alice) -> None:
    while True:
        await wait_until(lambda: humans_turn_or_over(bot, game_id)
                         and not move_in_progress(bot, game_id))
        if bot.service.view(game_id).status is not Status.RUNNING:
            return
        await bot.service.human_move(game_id, alice.id, QUIT)


async def test_game_over_comes_below_the_last_rounds_table_however_slow_the_table(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, ai_delay_s=0.0))
    alice, channel = fake.user("alice"), fake.channel("lama")
    await fake.slash(alice, channel, "lama new", ai_seats=2, target=10)
    game_id = bot.service.game_in_channel(channel.id).game_id
    released = hold_tables_until_waited_for(bot)
    await fake.slash(alice, channel, "lama start")
    await alice_quits_until_the_ais_end_the_game(bot, game_id, alice)
    await released.wait()
    await bot.renderer.flush_all()

    public = fake.public_messages(channel)
    over = [i for i, m in enumerate(public) if "Game over" in m.text]
    tables = [i for i, m in enumerate(public) if m.components_v2]
    rounds = bot.service.view(game_id).round_number
    assert len(over) == 1 and tables and max(tables) < over[0], [m.text for m in public]
    assert f"Round {rounds} is over" in public[max(tables)].text
