"""The web pages from Discord's side: the bot serves them (WEB_PORT), /lama settings makes them
public or private and shows the link to those who manage the server, and the answers of
/leaderboard, /lama stats, /lama replay and /lama history link to them only when they are
public."""

from __future__ import annotations

import logging
import random
import socket

import aiohttp
import pytest

from bot import LamaBot, Settings
from loopback.hook import API_BASE_ENV, discord_env_for
from loopback.running import BOT_TOKEN, run_bot
from store import GuildSettings
from tests.e2e.games import play

PUBLIC_URL = "https://lama.example.org"


def web_settings(fake, tmp_path, port: int | None = 0) -> Settings:
    return Settings(
        token=BOT_TOKEN,
        database_path=tmp_path / "lama.sqlite3",
        render_delay=0,
        discord_api_base_url=discord_env_for(fake.base_url)[API_BASE_ENV],
        discord_gateway_url=fake.ws_url,
        web_port=port,
        web_host="127.0.0.1",
        web_public_url=PUBLIC_URL,
    )


@pytest.fixture
async def web_bot(fake_discord, tmp_path, bot_errors):
    bot = LamaBot(web_settings(fake_discord, tmp_path), guild_ready_timeout=0.05)
    async with run_bot(fake_discord, bot, sync_commands=False):
        await bot.service.save_guild_settings(
            GuildSettings(fake_discord.guild.id, ai_delay_s=0.0, turn_timeout_s=3600)
        )
        yield bot


def web_links(message) -> list[str]:
    return [b.url for b in message.buttons if b.url]


async def fetch(bot, url: str) -> tuple[int, str]:
    """GET a page of the bot's site by its public URL (served on the test's loopback port)."""
    path = url.removeprefix(PUBLIC_URL)
    async with aiohttp.ClientSession() as http, \
            http.get(f"http://127.0.0.1:{bot.web.port}{path}") as response:
        return response.status, await response.text()


async def test_settings_show_the_private_link_and_make_the_pages_public(fake_discord, web_bot):
    fake, bot = fake_discord, web_bot
    owner, channel = fake.user("dave"), fake.channel("lama")
    await fake.grant(owner, manage_guild=True)
    shown = await fake.slash(owner, channel, "lama settings")
    assert shown.ephemeral and "Private" in shown.text
    secret = (await bot.site_service.access(fake.guild.id)).secret
    private_url = f"{PUBLIC_URL}/s/{secret}/leaderboard"
    assert f"[secret link]({private_url})" in shown.text  # a masked link, never bare
    assert (await fetch(bot, private_url))[0] == 200
    public_url = f"{PUBLIC_URL}/s/{fake.guild.id}/leaderboard"
    assert (await fetch(bot, public_url))[0] == 404

    made_public = await fake.slash(owner, channel, "lama settings", web_pages="public")
    assert "Settings saved." in made_public.text
    assert f"Public: [the server's pages]({public_url})" in made_public.text
    assert secret not in made_public.text
    assert (await fetch(bot, public_url))[0] == 200


async def test_a_new_link_replaces_the_secret(fake_discord, web_bot):
    fake, bot = fake_discord, web_bot
    owner, channel = fake.user("dave"), fake.channel("lama")
    await fake.grant(owner, manage_guild=True)
    old = (await bot.site_service.access(fake.guild.id)).secret
    renewed = await fake.slash(owner, channel, "lama settings", new_web_link=True)
    new = (await bot.site_service.access(fake.guild.id)).secret
    assert new != old and new in renewed.text and old not in renewed.text
    assert (await fetch(bot, f"/s/{old}/leaderboard"))[0] == 404


async def test_someone_who_cannot_manage_the_server_never_sees_the_link(fake_discord, web_bot):
    fake, bot = fake_discord, web_bot
    carol, channel = fake.user("carol"), fake.channel("lama")
    denied = await fake.slash(carol, channel, "lama settings", web_pages="public")
    assert denied.ephemeral and "/s/" not in denied.text
    assert await bot.site_service.public_key(fake.guild.id) is None


async def test_answers_link_to_the_pages_only_when_they_are_public(fake_discord, web_bot):
    fake, bot = fake_discord, web_bot
    channel, owner = fake.channel("lama"), fake.user("dave")
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id = await play(fake, bot, channel, [alice, bob], rng=random.Random(4))
    commands = (("leaderboard", {}), ("lama stats", {"user": alice}),
                ("lama replay", {"game_id": game_id}), ("lama history", {}))
    for command, options in commands:
        answer = await fake.slash(alice, channel, command, **options)
        assert web_links(answer.message) == [], command

    await fake.grant(owner, manage_guild=True)
    await fake.slash(owner, channel, "lama settings", web_pages="public")
    root = f"{PUBLIC_URL}/s/{fake.guild.id}"
    expected = [f"{root}/leaderboard", f"{root}/players/{alice.id}", f"{root}/games/{game_id}",
                f"{root}/games"]
    for (command, options), url in zip(commands, expected, strict=True):
        answer = await fake.slash(alice, channel, command, **options)
        assert web_links(answer.message) == [url], command
        status, page = await fetch(bot, url)
        assert status == 200 and "Alice" in page, url


async def test_without_a_public_address_there_are_no_links(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    owner, channel = fake.user("dave"), fake.channel("lama")
    await fake.grant(owner, manage_guild=True)
    shown = await fake.slash(owner, channel, "lama settings", web_pages="public")
    assert "This bot has no web pages." in shown.text
    board = await fake.slash(owner, channel, "leaderboard")
    assert web_links(board.message) == []
    assert bot.web is None


async def test_a_port_in_use_is_logged_and_the_bot_plays_on(fake_discord, tmp_path, caplog):
    fake = fake_discord
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = LamaBot(web_settings(fake, tmp_path, port), guild_ready_timeout=0.05)
        async with run_bot(fake, bot, sync_commands=False):
            assert bot.web is None
            lobby = await fake.slash(fake.user("alice"), fake.channel("lama"), "lama new")
            assert not lobby.ephemeral  # games go on
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"No web pages: WEB_HOST=127.0.0.1 WEB_PORT={port} cannot be")


async def test_a_public_address_without_a_port_links_nowhere(fake_discord, tmp_path, bot_errors):
    fake = fake_discord
    bot = LamaBot(web_settings(fake, tmp_path, port=None), guild_ready_timeout=0.05)
    async with run_bot(fake, bot, sync_commands=False):
        owner = fake.user("dave")
        await fake.grant(owner, manage_guild=True)
        shown = await fake.slash(owner, fake.channel("lama"), "lama settings", web_pages="public")
        assert "This bot has no web pages." in shown.text and PUBLIC_URL not in shown.text
        assert bot.web is None
