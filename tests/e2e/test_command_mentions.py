"""Messages name commands as Discord command mentions (`</lama new:ID>`), which each client
shows in its own language; the ids are those Discord gave the commands when they were synced."""

from __future__ import annotations

import re

from bot import LamaBot, Settings
from cogs.mentions import COMMANDS, CommandMentions
from loopback.running import BOT_TOKEN, run_bot
from tests.support.e2e import open_game, refused

LIST_ROUTE = "GET /applications/{application_id}/commands"


def command_id(fake, name: str) -> str:
    return next(c["id"] for c in fake.commands[None] if c["name"] == name)


async def test_a_refusal_names_the_command_to_use_as_a_mention(fake_discord, lamabot):
    fake = fake_discord
    result = await fake.slash(fake.user("alice"), fake.channel("lama"), "draw")
    refused(result, f"</lama new:{command_id(fake, 'lama')}>")


async def test_a_czech_reader_gets_the_same_mention(fake_discord, lamabot):
    """The mention is language-free: Discord shows each reader their own command name."""
    fake = fake_discord
    alice = fake.user("alice")
    alice.locale = "cs"
    result = await fake.slash(alice, fake.channel("lama"), "lama hand")
    refused(result, f"</lama new:{command_id(fake, 'lama')}>")
    assert "/lama new" not in result.text.replace("</lama new:", "")


async def test_history_and_settings_point_at_their_commands(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, channel = fake.user("alice"), fake.channel("lama")
    await fake.grant(alice, manage_guild=True)
    settings = await fake.slash(alice, channel, "lama settings")
    assert f"</lama settings:{command_id(fake, 'lama')}>" in settings.text, settings.text
    game_id = await open_game(fake, bot, channel, alice, fake.user("bob"), target=10)
    await bot.service.cancel(game_id, alice.id, is_admin=True)
    history = await fake.slash(alice, channel, "lama history")
    assert f"</lama new:{command_id(fake, 'lama')}>" in history.text, history.text


def _bot(fake, tmp_path):
    settings = Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3", render_delay=0)
    return LamaBot(settings, guild_ready_timeout=0.05)


async def test_ids_are_fetched_once_when_the_commands_were_synced_before(fake_discord, tmp_path):
    fake = fake_discord
    async with run_bot(fake, _bot(fake, tmp_path), sync_commands=False):
        pass
    async with run_bot(fake, _bot(fake, tmp_path), sync_commands=False):
        assert len(fake.rest_calls(LIST_ROUTE)) == 1
        assert COMMANDS.mention("lama hand") == f"</lama hand:{command_id(fake, 'lama')}>"
        result = await fake.slash(fake.user("alice"), fake.channel("lama"), "draw")
        assert re.search(r"</lama new:\d+>", result.text), result.text


def test_an_unknown_command_is_named_in_plain_text():
    assert CommandMentions().mention("lama hand") == "/lama hand"
