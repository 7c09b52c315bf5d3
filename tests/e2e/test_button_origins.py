"""A button acts only where what it acts on lives: a press must come from the server of its
game (tournament, leaderboard), and from a DM only where the button lives in DMs too (a
player's hand); anything else is politely refused and changes nothing. An admin's press counts
with their permissions in the game's server: Manage Server in another server is nothing here.

Discord itself sends a press only from the pressed message's own channel; these presses are
forged with the loopback Discord's `click_from` (loopback/README.md), as a modified
client could send them. Before, the lobby and tournament buttons took them: a press "from"
another server joined, started or, with Manage Server there, cancelled a game here."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import cogs
from cogs.buttons import LamaButton
from hosting import Status
from store import GuildSettings
from tests.e2e.rematches import finished_game, forget_in_memory
from tests.e2e.tournaments import QUICK, one_table_cup_played, signup_message
from tests.support.e2e import Unchanged, hand_messages, on_turn, open_game, refused, table

OTHER_SERVER = "This button belongs to another server, so it does nothing here."
NOT_IN_DM = "This button works only in the server it belongs to, not in direct messages."
LOBBY_PRESSES = [("Join", "carol"), ("Leave", "bob"), ("Add AI", "alice"),
                 ("Start", "alice"), ("Cancel", "alice")]


@pytest.fixture
async def far(fake_discord):
    """Another server with the bot and every user in it: carol has Manage Server there."""
    guild = await fake_discord.add_guild("Far Club", channels=("lama",))
    await fake_discord.grant(fake_discord.user("carol"), guild, manage_guild=True)
    return guild


def lobby_now(bot, channel) -> tuple:
    view = bot.service.game_in_channel(channel.id)
    return view.game_id, view.status, [(seat.user_id, seat.is_ai) for seat in view.seats]


async def lobby(fake, bot):
    channel = fake.channel("lama")
    await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"), start=False)
    return channel, fake.public_messages(channel)[-1]


@pytest.mark.parametrize(("label", "presser"), LOBBY_PRESSES)
async def test_a_lobby_press_from_another_server_is_refused(
    fake_discord, lamabot, far, label, presser
) -> None:
    fake, bot = fake_discord, lamabot
    channel, message = await lobby(fake, bot)
    before = lobby_now(bot, channel)
    async with Unchanged(fake, bot, None, channel, far.channel("lama")):
        result = await fake.click_from(fake.user(presser), message, label, far.channel("lama"))
    refused(result, OTHER_SERVER)
    assert lobby_now(bot, channel) == before


@pytest.mark.parametrize(("label", "presser"), LOBBY_PRESSES)
async def test_a_lobby_press_from_a_dm_is_refused(
    fake_discord, lamabot, label, presser
) -> None:
    fake, bot = fake_discord, lamabot
    channel, message = await lobby(fake, bot)
    before = lobby_now(bot, channel)
    async with Unchanged(fake, bot, None, channel):
        result = await fake.click_from(fake.user(presser), message, label, None)
    refused(result, NOT_IN_DM)
    assert lobby_now(bot, channel) == before


async def test_manage_server_counts_only_in_the_games_own_server(
    fake_discord, lamabot, far
) -> None:
    fake, bot = fake_discord, lamabot
    carol = fake.user("carol")  # not the host; Manage Server in Far Club only
    channel, message = await lobby(fake, bot)
    from_far = await fake.click_from(carol, message, "Cancel", far.channel("lama"))
    refused(from_far, OTHER_SERVER)
    at_home = await fake.click(carol, message, "Cancel")
    refused(at_home, "Only the host")
    assert bot.service.game_in_channel(channel.id).status is Status.LOBBY
    await fake.grant(carol, manage_guild=True)  # now in the game's server too
    cancelled = await fake.click(carol, message, "Cancel")
    assert cancelled.refused is None and not cancelled.ephemeral
    assert bot.service.game_in_channel(channel.id) is None


async def signed_up(fake, bot):
    """The Spring Cup in #lama: alice (organiser) and bob signed up, with two AIs."""
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, **QUICK))
    await fake.slash(alice, channel, "lama tournament new", name="Spring Cup", rounds=1,
                     table_size=4)
    for user in (alice, bob):
        await fake.click(user, signup_message(channel), "Join")
    for _ in range(2):
        await fake.click(alice, signup_message(channel), "Add AI")
    return channel, await bot.tournaments.in_channel(channel.id)


async def tournament_now(bot, tournament_id: int) -> tuple:
    tournament = await bot.tournaments.get(tournament_id)
    return tournament.status, [(e.user_id, e.ai_level) for e in tournament.entries]


@pytest.mark.parametrize("place", ["far", "dm"])
@pytest.mark.parametrize(("label", "presser"), LOBBY_PRESSES)
async def test_a_tournament_sign_up_press_from_elsewhere_is_refused(
    fake_discord, lamabot, far, label, presser, place
) -> None:
    fake, bot = fake_discord, lamabot
    channel, tournament = await signed_up(fake, bot)
    before = await tournament_now(bot, tournament.id)
    where = far.channel("lama") if place == "far" else None
    async with Unchanged(fake, bot, None, channel, far.channel("lama")):
        result = await fake.click_from(fake.user(presser), signup_message(channel), label, where)
    refused(result, OTHER_SERVER if place == "far" else NOT_IN_DM)
    assert await tournament_now(bot, tournament.id) == before


async def test_a_tournament_admin_press_counts_in_its_own_server_only(
    fake_discord, lamabot, far
) -> None:
    fake, bot = fake_discord, lamabot
    carol = fake.user("carol")
    channel, tournament = await signed_up(fake, bot)
    refused(await fake.click_from(carol, signup_message(channel), "Cancel", far.channel("lama")),
            OTHER_SERVER)
    refused(await fake.click(carol, signup_message(channel), "Cancel"), "Only")
    assert (await tournament_now(bot, tournament.id))[0].value == "signup"


async def test_table_and_hand_buttons_count_in_their_games_server_only(
    fake_discord, lamabot, far
) -> None:
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    game_id = await open_game(fake, bot, channel, alice, bob)
    board = table(fake, channel)
    async with Unchanged(fake, bot, game_id, channel):
        refused(await fake.click_from(bob, board, "Draw", far.channel("lama")), OTHER_SERVER)
        refused(await fake.click_from(bob, board, "My hand", None), NOT_IN_DM)
        refused(await fake.click_from(alice, board, "Draw", None), NOT_IN_DM)
    mover, _ = on_turn(fake, bot, game_id)
    dm_hand = hand_messages(fake, mover, game_id)[-1]
    async with Unchanged(fake, bot, game_id, channel):
        refused(await fake.click_from(mover, dm_hand, "Draw", far.channel("lama")),
                OTHER_SERVER)
    hand = (await fake.click(mover, board, "My hand")).message  # a private hand
    async with Unchanged(fake, bot, game_id, channel):
        refused(await fake.click_from(mover, hand, "Draw", far.channel("lama")), OTHER_SERVER)


async def test_a_rematch_press_from_another_server_is_refused(
    fake_discord, lamabot, far
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel, end = await finished_game(fake, bot, fake.user("bob"))
    forget_in_memory(bot, game_id)  # its server is read from the store
    refused(await fake.click_from(fake.user("bob"), end, "Rematch", far.channel("lama")),
            OTHER_SERVER)
    refused(await fake.click_from(fake.user("bob"), end, "Rematch", None), NOT_IN_DM)
    assert bot.service.game_in_channel(channel.id) is None  # no rematch lobby opened


async def test_a_standings_press_from_another_server_is_refused(
    fake_discord, lamabot, far
) -> None:
    fake, bot = fake_discord, lamabot
    _channel, over = await one_table_cup_played(fake, bot)
    refused(await fake.click_from(fake.user("bob"), over, "Standings", far.channel("lama")),
            OTHER_SERVER)
    shown = await fake.click(fake.user("bob"), over, "Standings")
    assert shown.ephemeral and "Spring Cup" in shown.text


def test_every_button_says_where_it_may_be_pressed() -> None:
    for module in pkgutil.iter_modules(cogs.__path__):
        importlib.import_module(f"cogs.{module.name}")
    buttons = []
    stack = list(LamaButton.__subclasses__())
    while stack:
        button = stack.pop()
        buttons.append(button)
        stack += button.__subclasses__()
    assert len(buttons) >= 10
    missing = [b.__name__ for b in buttons if b.home_guild is LamaButton.home_guild]
    assert not missing, f"no home_guild (where a press counts): {missing}"
    assert {b.__name__ for b in buttons if b.dm_presses} == {
        "HandButton", "OldHandButton", "ForgetButton"}
