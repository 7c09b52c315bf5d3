"""A button names the database of its game: game ids are numbered per database, so a button
made with another database (an old SQLite file, a bot moved to PostgreSQL, a process that once
ran part of the shards on a file of its own) never acts on this database's game of that number.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from bot import LamaBot, Settings
from cogs.buttons import LamaButton
from loopback.running import BOT_TOKEN, run_bot
from store import GuildSettings
from tests.support.e2e import (
    Unchanged,
    hand_button,
    hand_messages,
    on_turn,
    open_game,
    refused,
    untagged,
    use_seed,
)
from tests.support.lamabot import CHANNEL_PERIOD

SEED = 7


@asynccontextmanager
async def lamabot_on(fake, database_path):
    fake.ratelimits.channel_period = CHANNEL_PERIOD
    settings = Settings(token=BOT_TOKEN, database_path=database_path, render_delay=0,
                        channel_window=CHANNEL_PERIOD)
    bot = LamaBot(settings, guild_ready_timeout=0.05)
    async with run_bot(fake, bot, sync_commands=False):
        await bot.service.save_guild_settings(
            GuildSettings(fake.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
        use_seed(bot, SEED)
        yield bot
        await bot.renderer.flush_all()


async def test_every_button_names_the_database_of_its_game(fake_discord, tmp_path, bot_errors):
    fake = fake_discord
    async with lamabot_on(fake, tmp_path / "lama.sqlite3") as bot:
        game_id = await open_game(fake, bot, fake.channel("lama"), fake.user("alice"),
                                  fake.user("bob"))
        player, _ = on_turn(fake, bot, game_id)
        hand = hand_messages(fake, player, game_id)[-1]
        table = fake.public_messages("lama")[-1]
        tagged = [*hand.custom_ids, *table.custom_ids]
        assert tagged and all(c.split(":")[2] == bot.database_identity for c in tagged)
        assert untagged(hand_button(hand, "draw")) == f"lama:h:{game_id}:1:{player.id}:draw"
        assert LamaButton.database == bot.database_identity
    assert LamaButton.database is None  # a closed bot leaves no identity behind


async def test_a_dm_button_of_another_databases_game_is_refused_and_changes_nothing(
    fake_discord, tmp_path, bot_errors
) -> None:
    fake, channel = fake_discord, fake_discord.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with lamabot_on(fake, tmp_path / "first.sqlite3") as bot:
        first_game = await open_game(fake, bot, channel, alice, bob)
        player, _ = on_turn(fake, bot, first_game)
        old_hand = hand_messages(fake, player, first_game)[-1]
    # Minutes pass: the second bot's posts, carrying the same nonces, are messages of their own
    # (within the window Discord would hand back the first bot's, which the bot then edits).
    fake.forget_nonces()
    async with lamabot_on(fake, tmp_path / "second.sqlite3") as bot:
        game_id = await open_game(fake, bot, channel, alice, bob)
        # The same number, the same deal, the same player on turn: only the database differs.
        assert game_id == first_game and on_turn(fake, bot, game_id)[0] is player
        async with Unchanged(fake, bot, game_id, channel):
            result = await fake.click(player, old_hand, hand_button(old_hand, "draw"))
        refused(result, "This button belongs to a game this bot doesn't keep")
        assert await bot.store.games.list_moves(game_id) == []


async def test_a_button_from_before_ids_named_their_database_still_works(
    fake_discord, tmp_path, bot_errors
) -> None:
    fake, channel = fake_discord, fake_discord.channel("lama")
    async with lamabot_on(fake, tmp_path / "lama.sqlite3") as bot:
        game_id = await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"))
        player, _ = on_turn(fake, bot, game_id)
        hand = hand_messages(fake, player, game_id)[-1]
        for component in hand.walk_components():  # as the bot made them before: no database
            if component.get("custom_id"):
                component["custom_id"] = untagged(component["custom_id"])
        result = await fake.click(player, hand, hand_button(hand, "draw"))
        assert result.refused is None and not result.ephemeral
        [move] = await bot.store.games.list_moves(game_id)
        assert move.action == {"type": "draw"}
