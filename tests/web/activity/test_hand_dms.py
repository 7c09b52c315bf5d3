"""A player who plays in the Activity only is at the table while it is open: their turn after a
quiet minute brings no new hand DM (issue 34's rule, docs/turn-pings.md); once they closed it
and stayed quiet for that minute, it does, as for any player away from the table. Before, the
bot heard of Discord interactions only: the Activity's player got a new hand DM on every turn
that came a minute after the last one it had heard of.

Alice plays in the Activity (she joins, and draws, there), Bob by `/draw`. The bot's clock is
a FakeClock: a minute passes only when the test says so."""

from __future__ import annotations

import pytest

from cogs.render.ledger import AT_TABLE_FOR
from hosting import FakeClock
from store import GuildSettings
from tests.support.e2e import enabled_hand_buttons, hand_messages, on_turn, settle, wait_until

pytestmark = pytest.mark.parametrize("bot_clock", [FakeClock()])


def dms_sent(fake, user) -> int:
    """Every message the bot ever created in the user's DM channel (deleted ones too)."""
    channel = fake.dm_channels.get(user.id)
    if channel is None:
        return 0
    return len([call for call in fake.rest_calls("POST /channels/{channel_id}/messages")
                if call.params.get("channel_id") == str(channel.id)])


async def alice_in_the_activity(fake, bot, page):
    """Bob opens a lobby in #lama by slash command, Alice joins it from her Activity, Bob
    starts: each gets the deal's hand DM. Returns the game and Alice's page."""
    await bot.service.save_guild_settings(GuildSettings(fake.guild.id, turn_timeout_s=3600))
    alice, bob = fake.user("alice"), fake.user("bob")
    assert not (await fake.slash(bob, "lama", "lama new", target=200)).ephemeral
    alices = await page(alice)
    assert (await alices.request("join"))["type"] == "ok"
    assert (await fake.slash(bob, "lama", "lama start")).ephemeral
    game_id = bot.service.game_in_channel(fake.channel("lama").id).game_id
    await settle(bot, game_id)
    assert dms_sent(fake, alice) == 1  # the deal
    return game_id, alices


async def alice_draws(bot, game_id: int, alices) -> None:
    assert on_turn(alices.fake, bot, game_id)[0] == alices.user
    assert (await alices.request("draw"))["type"] == "ok"
    await settle(bot, game_id)


async def a_quiet_minute_then_bob_draws(fake, bot, clock, game_id: int) -> None:
    """A minute without a word from Alice on Discord; then Bob draws, and it is her turn."""
    clock.advance(AT_TABLE_FOR)
    bob = fake.user("bob")
    assert on_turn(fake, bot, game_id)[0] == bob
    assert (await fake.slash(bob, "lama", "draw")).ephemeral
    await settle(bot, game_id)
    assert on_turn(fake, bot, game_id)[0] == fake.user("alice")


async def test_an_activity_player_gets_no_hand_dm_while_it_is_open_then_one_once_away(
    fake_discord, lamabot, page, bot_clock
) -> None:
    fake, bot, clock = fake_discord, lamabot, bot_clock
    alice = fake.user("alice")
    game_id, alices = await alice_in_the_activity(fake, bot, page)
    if on_turn(fake, bot, game_id)[0] == alice:
        await alice_draws(bot, game_id, alices)
    await a_quiet_minute_then_bob_draws(fake, bot, clock, game_id)
    assert dms_sent(fake, alice) == 1, [m.text for m in fake.dms(alice)]
    (hand,) = hand_messages(fake, alice, game_id)  # the deal's, live in place
    assert enabled_hand_buttons(hand)

    await alice_draws(bot, game_id, alices)
    await alices.close()  # she leaves the Activity
    # the bot has seen her go (it is her last sign of life, counted from now)
    await wait_until(lambda: not bot.presence.seen_since(game_id, alice.id, clock.now()))
    await a_quiet_minute_then_bob_draws(fake, bot, clock, game_id)
    assert dms_sent(fake, alice) == 2, [m.text for m in fake.dms(alice)]
    older, newer = hand_messages(fake, alice, game_id)
    assert enabled_hand_buttons(newer) and not enabled_hand_buttons(older)


def open_now(bot, game_id: int, user) -> bool:
    """Whether the bot counts a window of the user's open on the game at this instant."""
    return bot.presence.seen_since(game_id, user.id, bot.clock.now())


async def test_an_open_activity_counts_for_the_game_it_goes_on_to(
    fake_discord, lamabot, page, bot_clock
) -> None:
    """Opened on a channel with no game, the Activity shows the lobby Bob opens there, then,
    that one cancelled, the next: Alice is at the table of the one it shows, not the other."""
    fake, bot = fake_discord, lamabot
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    alices = await page(alice)
    assert not (await fake.slash(bob, channel, "lama new")).ephemeral
    first = bot.service.game_in_channel(channel.id).game_id
    await alices.state(lambda v: v.get("game_id") == first)
    assert open_now(bot, first, alice)
    assert (await fake.slash(bob, channel, "lama cancel")).ephemeral
    assert not (await fake.slash(bob, channel, "lama new")).ephemeral
    second = bot.service.game_in_channel(channel.id).game_id
    await alices.state(lambda v: v.get("game_id") == second)
    assert open_now(bot, second, alice) and not open_now(bot, first, alice)
    await alices.close()
    await wait_until(lambda: not open_now(bot, second, alice))
