"""A press the bot has no handler for is answered: a button of an older message whose custom id
an upgrade laid out anew, garbage, an id as long as Discord allows (100 characters), a select
menu or a form (modal) this version does not know. Each gets one private answer in the
reader's language that says the message is out of date and names a command to use instead,
logged once at INFO, never as an error; before, nothing answered and Discord showed "This
interaction failed". A press the bot does know is still answered once, by its own handler."""

from __future__ import annotations

import asyncio
import logging
import re

import discord
import pytest

from cogs.button_views import ButtonsView
from cogs.mentions import command
from cogs.text import t
from tests.support.e2e import Unchanged, open_game, refused

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
LOGGER = "cogs.buttons"

# Ids as earlier layouts had them, or could have: a kind since renamed, an action no lobby
# offers any more, a table button with a part since dropped, a sort since renamed.
OLD_LAYOUTS = [
    "lama:join:12",
    "lama:l:12:kick",
    "lama:t:12:1:hand:3",
    "lama:lb:p:1:2:elo:all:all_time:0",
    "lama:tn:5:join:7",
    "lama:h:12:draw",
]
# OLD_LAYOUTS' kinds that are not a game's: the answer's key, and the command it names
AREAS = {"lb": ("leaderboard", "leaderboard"), "tn": ("tournament", "lama tournament standings")}
GARBAGE = [
    "x", "🦙", "lama:", "lama:l:1:join ", "lama:l:١٢:join",  # Arabic-Indic digits: not an id
    "lama:r:12\n", "<@&424242>", "lama:h:12:1:2:3:4:draw",
]
LONGEST = [
    "x" * 100,
    "lama:l:" + "9" * 88 + ":join",  # the lobby's layout, with a number no game id can be
    "lama:h:" + "12:" * 29 + "1:draw",
    "lama:lb:p:1:2:rating:all:all_time:" + "0" * 66,
]
assert {len(custom_id) for custom_id in LONGEST} == {100}  # Discord's longest
FRAGMENTS = {"en": "older message", "cs": "starší zprávě", "es": "mensaje anterior"}
LOCALES = {"en": "en-US", "cs": "cs", "es": "es-ES"}


def expected(key: str, locale: str, path: str = "lama hand") -> str:
    return t(key, locale, command=command(path))


async def posted_before_an_upgrade(fake, bot, place, *custom_ids: str, select: str | None = None):
    """A message the bot posted before an upgrade changed its ids: buttons (and a select menu)
    whose custom ids this version has no handler for. ``place``: a channel, or a user (their
    DM). Sent through the bot's own REST client, with a view nothing listens to, as every
    view the bot sends (cogs/button_views.py)."""
    ui = ButtonsView()
    for number, custom_id in enumerate(custom_ids):
        ui.add_item(discord.ui.Button(custom_id=custom_id, label=f"Old {number}"))
    if select is not None:
        ui.add_item(discord.ui.Select(custom_id=select,
                                      options=[discord.SelectOption(label="Old", value="old")]))
    if hasattr(place, "recipient"):  # a channel object
        channel_id = place.id
    else:
        channel_id = int((await bot.http.start_private_message(place.id))["id"])
    sent = await bot.get_partial_messageable(channel_id).send("An older message", view=ui)
    return next(m for m in fake.channels[channel_id].messages if m.id == sent.id)


async def answered_once(fake, result) -> None:
    """The press got one first answer, and no second one comes after it."""
    assert result.response_type is not None and result.refused is None, result
    assert result.elapsed is not None and result.elapsed < 3, result.elapsed
    await asyncio.sleep(0.05)  # a second handler, if any, has had time to answer too
    calls = [c for c in fake.rest_calls(CALLBACK)
             if c.params["interaction_id"] == str(result.record.id)]
    assert len(calls) == 1, [c.body for c in calls]


def logged(caplog, custom_id: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER and custom_id in (r.args or ())]


@pytest.mark.parametrize("custom_id", OLD_LAYOUTS + GARBAGE + LONGEST)
async def test_an_unknown_press_in_a_server_channel_is_answered_once_privately(
    fake_discord, lamabot, caplog, custom_id
) -> None:
    fake, bot = fake_discord, lamabot
    caplog.set_level(logging.INFO)
    channel = fake.channel("lama")
    old = await posted_before_an_upgrade(fake, bot, channel, custom_id)
    async with Unchanged(fake, bot, None, channel):
        result = await fake.click(fake.user("alice"), old, custom_id)
        await answered_once(fake, result)
    kind = custom_id.split(":")[1] if custom_id.count(":") > 1 else ""
    area, path = AREAS.get(kind, ("button", "lama hand"))
    assert result.ephemeral
    assert result.content == expected(f"error.unknown_press.{area}", "en", path)
    assert "older" in result.content
    [record] = logged(caplog, custom_id)
    assert record.levelno == logging.INFO
    await bot.http.delete_message(channel.id, old.id)  # hand-like ids stay out of the channel


@pytest.mark.parametrize("language", ["en", "cs", "es"])
@pytest.mark.parametrize("custom_id", [OLD_LAYOUTS[1], GARBAGE[1], LONGEST[1]])
async def test_an_unknown_press_in_a_dm_is_answered_in_the_readers_language(
    fake_discord, lamabot, caplog, custom_id, language
) -> None:
    fake, bot = fake_discord, lamabot
    caplog.set_level(logging.INFO)
    reader = fake.add_user("reader", locale=LOCALES[language])
    old = await posted_before_an_upgrade(fake, bot, reader, custom_id)
    result = await fake.click(reader, old, custom_id)
    await answered_once(fake, result)
    assert result.ephemeral
    assert result.content == expected("error.unknown_press.button", language)
    assert FRAGMENTS[language] in result.content
    assert len(logged(caplog, custom_id)) == 1


async def test_a_hand_id_of_the_oldest_layout_naming_a_database_is_refused(
    fake_discord, lamabot
) -> None:
    """`lama:h:<game>:<round>:<action>` is the oldest hand layout (OldHandButton), from before
    ids named a database; here "quitok" reads as one. Rebuilt from the whole id, the button
    got a second database and discord.py dropped the press, logging an error."""
    fake, bot = fake_discord, lamabot
    old = await posted_before_an_upgrade(fake, bot, fake.user("alice"), "lama:h:quitok:1:2:L")
    result = await fake.click(fake.user("alice"), old, "lama:h:quitok:1:2:L")
    await answered_once(fake, result)
    refused(result, "This button belongs to a game this bot doesn't keep")


async def test_the_answer_names_the_command_as_a_mention(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    old = await posted_before_an_upgrade(fake, bot, fake.channel("lama"), "lama:gone:1")
    result = await fake.click(fake.user("bob"), old, "lama:gone:1")
    assert re.search(r"</lama hand:\d+>", result.content), result.content


@pytest.mark.parametrize(("custom_id", "meant"), [
    ("lama:lb:p:1:2:elo:all:all_time:0", r"</leaderboard:\d+> to see the leaderboard"),
    ("lama:tn:5:join:7", r"</lama tournament standings:\d+> to see the standings"),
    ("lama:rp:p:1", r"</lama replay:\d+> to open the replay"),
    ("lama:fm:1:perhaps", r"</lama forget-me:\d+> again"),
    ("lama:l:12:kick", r"</lama hand:\d+> to see your game"),
])
async def test_an_unknown_press_names_the_command_that_shows_what_it_was_about(
    fake_discord, lamabot, custom_id, meant
) -> None:
    """An old leaderboard's, tournament's or replay's button points to that, not to a game."""
    fake, bot = fake_discord, lamabot
    old = await posted_before_an_upgrade(fake, bot, fake.channel("lama"), custom_id)
    result = await fake.click(fake.user("bob"), old, custom_id)
    await answered_once(fake, result)
    assert re.search(meant, result.content), result.content


async def test_an_unknown_select_menu_is_answered(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    old = await posted_before_an_upgrade(fake, bot, fake.channel("lama"), select="lama:pick:1")
    result = await fake.select(fake.user("carol"), old, "lama:pick:1", ["old"])
    await answered_once(fake, result)
    assert result.ephemeral and result.content == expected("error.unknown_press.menu", "en")


class Rename(discord.ui.Modal, title="Rename"):
    """A form an older version opened (a restart forgets every form a bot listens to)."""

    name: discord.ui.TextInput = discord.ui.TextInput(label="Name", custom_id="lama:rename:name")

    def __init__(self) -> None:
        super().__init__(custom_id="lama:rename")


class OpensAForm(discord.ui.DynamicItem[discord.ui.Button], template=r"test:form"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(custom_id="test:form", label="Form"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match) -> OpensAForm:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        form = Rename()
        await interaction.response.send_modal(form)
        form.stop()  # as after a restart: nothing listens for this form any more


async def test_an_unknown_form_is_answered(fake_discord, lamabot, caplog) -> None:
    fake, bot = fake_discord, lamabot
    caplog.set_level(logging.INFO)
    bot.add_dynamic_items(OpensAForm)
    try:
        old = await posted_before_an_upgrade(fake, bot, fake.channel("lama"), "test:form")
        opened = await fake.click(fake.user("dave"), old, "test:form")
        assert opened.modal is not None
    finally:
        bot.remove_dynamic_items(OpensAForm)
    result = await fake.submit_modal(fake.user("dave"), opened, **{"lama:rename:name": "Bo"})
    await answered_once(fake, result)
    assert result.ephemeral and result.content == expected("error.unknown_press.form", "en")
    assert len(logged(caplog, "lama:rename")) == 1


async def test_a_known_press_is_answered_once_by_its_own_handler(
    fake_discord, lamabot, caplog
) -> None:
    fake, bot = fake_discord, lamabot
    caplog.set_level(logging.INFO)
    channel = fake.channel("lama")
    await open_game(fake, bot, channel, fake.user("alice"), start=False)
    lobby = fake.public_messages(channel)[-1]
    joined = await fake.click(fake.user("bob"), lobby, "Join")
    await answered_once(fake, joined)
    assert joined.response_type == 7  # the lobby itself, redrawn with bob seated
    refused_press = await fake.click(fake.user("bob"), lobby, "Join")
    await answered_once(fake, refused_press)
    refused(refused_press, "already")
    assert not [r for r in caplog.records if r.name == LOGGER]
