"""Each reader in their language, and pictures of the cards: LamaBot end to end.

- replies and DMs: the reader's `/lama language` choice, else their Discord client's locale;
- public messages (lobby, table, summaries): the server's setting, else its preferred locale;
- hands show their cards as the card faces (application emojis), each beside its name in the
  reader's language; the table message carries a PNG when each round's table is posted.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

import i18n
from bot import LamaBot, Settings
from hosting import Status
from loopback.running import BOT_TOKEN, run_bot
from store import Store
from tests.support.e2e import find_seed, names_game, settle, use_seed

PNG = b"\x89PNG\r\n\x1a\n"
POST_MESSAGE = "POST /channels/{channel_id}/messages"


async def start_against_ai(fake, bot, host, channel, **options) -> int:
    await fake.slash(host, channel, "lama new", ai_seats=1, **options)
    await fake.slash(host, channel, "lama start")
    game_id = bot.service.game_in_channel(channel.id).game_id
    await settle(bot, game_id)
    return game_id


def hand_dms(fake, user, game_id: int) -> list:
    return [m for m in fake.dms(user) if any(names_game(c, "h", game_id) for c in m.custom_ids)]


def posts(fake, channel) -> list[tuple[str, list[str]]]:
    """What the bot posted in the channel: (title, attached file names), in order; a
    Components V2 message's title is its first text display's heading."""
    found = []
    for call in fake.rest_calls(POST_MESSAGE):
        if int(call.params["channel_id"]) == channel.id:
            for embed in (call.body or {}).get("embeds") or []:
                found.append((embed.get("title", ""), call.filenames))
            for box in (call.body or {}).get("components") or []:
                texts = [c["content"] for c in box.get("components", []) if c.get("type") == 10]
                if box.get("type") == 17 and texts:
                    found.append((texts[0].removeprefix("## "), call.filenames))
    return found


def table_title(locale: str, variant: str, round_number: int) -> str:
    name = i18n.t(f"variant.{variant}", locale)
    return i18n.t("table.title", locale, variant=name, round=round_number)


def assert_card_faces(fake, message, locale: str, variant: str = "classic") -> None:
    """A hand shows its cards as the card faces (the application's emojis) beside their
    names in the reader's language, and carries no picture."""
    assert message.attachments == []
    faces = {e["name"]: int(e["id"]) for e in fake.application_emojis.values()}
    cards = [b for b in message.buttons if b.custom_id.rsplit(":", 1)[1][0] in "123456LP"]
    assert cards
    for button in cards:
        code = button.custom_id.rsplit(":", 1)[1]
        assert faces[button.emoji] == button.emoji_id
        assert button.label.startswith(i18n.card_name(code, variant, locale))
    assert re.search(r"<:lamacard_\w+:\d+> ", message.embed_text)


def assert_png_attached(message, filename: str) -> None:
    assert [a.filename for a in message.attachments] == [filename], message.attachments
    assert message.attachments[0].data.startswith(PNG)
    assert message.embeds[0]["image"]["url"].endswith(filename)


# --------------------------------------------------------------------------- replies and DMs


async def test_a_czech_player_gets_czech_replies_and_a_czech_hand_with_its_card_faces(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    use_seed(bot, find_seed("party", 2, lambda game: game.current_seat == 1))  # bob's turn:
    alice, bob = fake.user("alice"), fake.user("bob")  # his live hand shows the draw pile
    bob.locale = "cs"
    channel = fake.channel("lama")
    lobby = await fake.slash(alice, channel, "lama new", variant="party")
    assert i18n.t("lobby.title", "en", variant=i18n.t("variant.party", "en")) in lobby.text
    joined = await fake.slash(bob, channel, "lama join")
    assert joined.ephemeral and joined.text == "Jsi ve hře."  # not "Bob se přidává"
    started = await fake.slash(alice, channel, "lama start")
    assert started.text == i18n.t("lobby.you_started", "en")
    game_id = bot.service.game_in_channel(channel.id).game_id
    await bot.renderer.flush_all()

    hand = hand_dms(fake, bob, game_id)[-1]
    assert hand.embeds[0]["title"] == i18n.t("hand.title", "cs", round=1)
    assert i18n.t("action.draw", "cs") in [b.label for b in hand.buttons]
    assert_card_faces(fake, hand, "cs", "party")
    # Every count is grammatical: the pile and the hand read as the Czech plural rule says.
    pile = re.search(r"Dobírací balíček: (\d+) \w+", hand.embed_text)
    assert pile[0] == i18n.t("table.draw_pile", "cs", count=int(pile[1]))
    cards = len(bot.service.observation(game_id, bob.id).hand)  # bob has not moved yet
    assert i18n.t("hand.cards", "cs", count=cards) in hand.embed_text
    alices = hand_dms(fake, alice, game_id)[-1]
    assert alices.embeds[0]["title"] == i18n.t("hand.title", "en", round=1)

    # /lama hand answers in Czech, with the card faces too.
    again = await fake.slash(bob, channel, "lama hand")
    assert again.ephemeral and again.embeds[0]["title"] == i18n.t("hand.title", "cs", round=1)
    assert_card_faces(fake, again.message, "cs", "party")


async def test_a_move_from_the_hand_buttons_redraws_the_hands_card_faces(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    dana = fake.add_user("dana", locale="es-419")
    channel = fake.channel("lama")
    game_id = await start_against_ai(fake, bot, dana, channel, variant="classic")
    hand = hand_dms(fake, dana, game_id)[-1]  # her turn: the newest hand DM
    before = hand.embed_text.count("<:lamacard_")
    draw = next(b for b in hand.buttons if b.label == i18n.t("action.draw", "es"))
    result = await fake.click(dana, hand, draw.custom_id)
    assert result.response_type == 7  # the hand message itself, edited in the response
    await settle(bot, game_id)
    assert_card_faces(fake, result.message, "es")
    assert result.message.embed_text.count("<:lamacard_") == before + 1  # the drawn card
    assert result.message.embeds[0]["title"] == i18n.t("hand.title", "es", round=1)


# --------------------------------------------------------------------------- public messages


@pytest.fixture
def spanish_server(fake_discord):
    fake_discord.guild.preferred_locale = "es-ES"  # before the bot connects
    return fake_discord


async def test_a_spanish_server_gets_a_spanish_table_with_a_picture_every_round(
    spanish_server, lamabot
):
    fake, bot = spanish_server, lamabot
    alice = fake.user("alice")  # her client is English
    channel = fake.channel("lama")
    # target 200: quitting every round with a full hand cannot end the game within 3 rounds
    game_id = await start_against_ai(fake, bot, alice, channel, variant="classic", target=200)
    rounds = 1
    for _ in range(50):  # alice quits every round; the AI finishes it alone
        view = bot.service.view(game_id)
        if view.status is not Status.RUNNING or view.round_number >= 3:
            break
        quit_ = await fake.slash(alice, channel, "quit")
        assert quit_.ephemeral
        await settle(bot, game_id)
        rounds = bot.service.view(game_id).round_number
    assert rounds >= 3
    posted = posts(fake, channel)
    for number in range(1, rounds + 1):  # one table per round, each with its picture
        tables = [files for title, files in posted if title == table_title("es", "classic", number)]
        assert tables == [["table.png"]], (number, posted)
    closed = next(m for m in fake.public_messages(channel) if m.components_v2)
    assert i18n.t("round.over", "es", round=1) in closed.text  # its summary: Spanish too
    # The current table speaks Spanish, with grammatical counts.
    current = table_title("es", "classic", rounds)
    table = next(m for m in fake.public_messages(channel) if current in m.display_text)
    pile = re.search(r"Mazo: (\d+) \w+", table.text)
    assert pile is None or pile[0] == i18n.t("table.draw_pile", "es", count=int(pile[1]))


async def test_the_server_setting_beats_the_servers_preferred_locale(spanish_server, lamabot):
    fake, bot = spanish_server, lamabot
    guild_id = fake.guild.id
    settings = await bot.service.guild_settings(guild_id)
    await bot.service.save_guild_settings(replace(settings, locale="cs"))
    alice = fake.user("alice")
    channel = fake.channel("lama")
    await start_against_ai(fake, bot, alice, channel, variant="classic")
    assert (table_title("cs", "classic", 1), ["table.png"]) in posts(fake, channel)


# --------------------------------------------------------------------------- /lama language


async def test_lama_language_overrides_discord_and_survives_a_restart(
    fake_discord, tmp_path, bot_errors
):
    fake = fake_discord
    carol = fake.user("carol")  # Discord says en-US
    channel = fake.channel("lama")
    settings = Settings(token=BOT_TOKEN, database_path=tmp_path / "lama.sqlite3", render_delay=0)

    bot = LamaBot(settings, guild_ready_timeout=0.05)
    async with run_bot(fake, bot, sync_commands=False):
        await bot.service.save_guild_settings(
            replace(await bot.service.guild_settings(fake.guild.id), ai_delay_s=0.0)
        )
        chosen = await fake.slash(carol, channel, "lama language", language="cs")
        assert chosen.ephemeral
        assert chosen.text == "Herní jazyk: čeština. Od teď s tebou mluvím česky."
        rules = await fake.slash(carol, channel, "lama rules")
        assert rules.embeds[0]["title"] == i18n.t("variant.classic", "cs")
        shown = await fake.slash(carol, channel, "lama language")
        assert shown.text == "Tvůj herní jazyk: čeština"  # mid-sentence: lowercase
        game_id = await start_against_ai(fake, bot, carol, channel, variant="classic")
        assert hand_dms(fake, carol, game_id)[-1].embeds[0]["title"] == i18n.t(
            "hand.title", "cs", round=1
        )
        # The public table follows the server, not her.
        assert (table_title("en", "classic", 1), ["table.png"]) in posts(fake, channel)

    bot = LamaBot(settings, guild_ready_timeout=0.05)  # same database, a fresh process
    async with run_bot(fake, bot, sync_commands=False):
        view = bot.service.view(game_id)  # restored
        # A DM the bot sends on its own (her turn, a reminder) reads her choice from the store.
        assert await bot.renderer.hands.locale(carol.id, view) == "cs"
        rules = await fake.slash(carol, channel, "lama rules")
        assert rules.embeds[0]["title"] == i18n.t("variant.classic", "cs")
        obs = bot.service.observation(game_id, carol.id)
        if obs.can_draw:
            moved = await fake.slash(carol, channel, "draw")
        elif obs.legal_plays:
            moved = await fake.slash(carol, channel, "play", card=obs.legal_plays[0].code)
        else:
            moved = await fake.slash(carol, channel, "quit")
        titles = {i18n.t("hand.title", "cs", round=r) for r in (1, 2)}
        assert moved.embeds[0]["title"] in titles, moved.text
        assert_card_faces(fake, moved.message, "cs")

        reset = await fake.slash(carol, channel, "lama language", language="auto")
        assert reset.text == i18n.t("language.reset", "en")
        carol.locale = "es-ES"
        rules = await fake.slash(carol, channel, "lama rules")
        assert rules.embeds[0]["title"] == i18n.t("variant.classic", "es")
    assert await stored_override(tmp_path, carol.id) is None


async def stored_override(tmp_path, user_id: int) -> str | None:
    store = await Store.open(tmp_path / "lama.sqlite3")
    try:
        return await store.settings.get_user_locale(user_id)
    finally:
        await store.close()
