"""Card faces as application emojis (issue 14): uploaded once, at start-up, only when missing;
hands then show the faces as text beside the cards' names, with no picture per move."""

from __future__ import annotations

import discord

from bot import LamaBot, Settings
from cogs.emojis import CARD_EMOJIS, FACE_OF_NAME, CardEmojis
from loopback.emojis import emoji_json
from loopback.hook import API_BASE_ENV, discord_env_for
from loopback.running import BOT_TOKEN, run_bot
from store import GuildSettings

CREATE = "POST /applications/{application_id}/emojis"


def settings_for(fake, tmp_path) -> Settings:
    return Settings(
        token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3", render_delay=0,
        discord_api_base_url=discord_env_for(fake.base_url)[API_BASE_ENV],
        discord_gateway_url=fake.ws_url,
    )


def faces_on(fake) -> dict[str, int]:
    return {e["name"]: int(e["id"]) for e in fake.application_emojis.values()}


async def test_a_first_start_uploads_every_card_face(fake_discord, tmp_path):
    async with run_bot(fake_discord, LamaBot(settings_for(fake_discord, tmp_path),
                                             guild_ready_timeout=0.05), sync_commands=False):
        assert CARD_EMOJIS.ready
    assert set(faces_on(fake_discord)) == set(FACE_OF_NAME)
    assert len(fake_discord.rest_calls(CREATE)) == len(FACE_OF_NAME) == 15


async def test_a_later_start_uploads_nothing_and_uses_the_faces_there(fake_discord, tmp_path):
    for name in FACE_OF_NAME:  # uploaded by an earlier start
        emoji_id = fake_discord.snowflakes.next()
        fake_discord.application_emojis[emoji_id] = emoji_json(fake_discord, emoji_id, name)
    bot = LamaBot(settings_for(fake_discord, tmp_path), guild_ready_timeout=0.05)
    async with run_bot(fake_discord, bot, sync_commands=False):
        face = CARD_EMOJIS.emoji("3", "classic")
        assert face is not None and face.id == faces_on(fake_discord)["lamacard_3"]
    assert fake_discord.rest_calls(CREATE) == []


async def test_only_the_missing_faces_are_uploaded(fake_discord, tmp_path):
    for name in FACE_OF_NAME:
        if name != "lamacard_mosquito":
            emoji_id = fake_discord.snowflakes.next()
            fake_discord.application_emojis[emoji_id] = emoji_json(fake_discord, emoji_id, name)
    bot = LamaBot(settings_for(fake_discord, tmp_path), guild_ready_timeout=0.05)
    async with run_bot(fake_discord, bot, sync_commands=False):
        assert CARD_EMOJIS.ready
    [created] = fake_discord.rest_calls(CREATE)
    assert created.body["name"] == "lamacard_mosquito"


async def test_a_refused_upload_leaves_hands_with_unicode_cards_and_a_picture(
    fake_discord, tmp_path
):
    fake_discord.fail_next(CREATE, status=403)
    bot = LamaBot(settings_for(fake_discord, tmp_path), guild_ready_timeout=0.05)
    async with run_bot(fake_discord, bot, sync_commands=False):
        assert not CARD_EMOJIS.ready
        await bot.service.save_guild_settings(
            GuildSettings(fake_discord.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
        alice, channel = fake_discord.user("alice"), fake_discord.channel("lama")
        await fake_discord.slash(alice, channel, "lama new", ai_seats=1)
        await fake_discord.slash(alice, channel, "lama start")
        hand = await fake_discord.slash(alice, channel, "lama hand")
        assert [a.filename for a in hand.message.attachments] == ["hand.png"]
        assert all(b.emoji_id is None for b in hand.message.buttons)
        assert "<:lamacard_" not in hand.message.embed_text


def test_faces_are_used_only_when_every_one_is_known():
    emojis = CardEmojis()
    some = {name: n for n, name in enumerate(FACE_OF_NAME, 1) if name != "lamacard_6"}
    emojis.learn(some)
    assert not emojis.ready and emojis.emoji("3", "classic") is None
    emojis.learn({**some, "lamacard_6": 99})
    assert emojis.emoji("6", "party") == discord.PartialEmoji(name="lamacard_6", id=99)
    assert emojis.markup("6", "classic") == "<:lamacard_6:99>"


def test_each_variant_shows_its_own_llama():
    emojis = CardEmojis()
    emojis.learn({name: n for n, name in enumerate(FACE_OF_NAME, 1)})
    llamas = {emojis.markup("L", v) for v in ("classic", "party", "komarami")}
    assert len(llamas) == 2  # the mosquito of Lato z Komarami; classic and party share
    assert "lamacard_mosquito" in emojis.markup("L", "komarami")
    assert "lamacard_pink_llama" in emojis.markup("P", "party")
