"""A player's first hand DM of a game, when an AI opens the round a moment after the deal.

The deal sends every player their hand ("Not your turn" but for the starter). Where an AI
starts and its opening move comes at once, the player next on turn used to get a second DM
right behind the first ("It's your turn"), the first left behind showing "Not your turn". The
deal that went out a moment ago is their one DM now: it turns live in place (their phone has
just buzzed for it). So do their later turns while they keep up; only a turn after a quiet
minute (no move, no look, no DM of the game) is a new DM (docs/turn-pings.md)."""

from __future__ import annotations

import pytest

from cogs.render.ledger import AT_TABLE_FOR
from hosting import FakeClock
from store import GuildSettings
from tests.support.e2e import (
    enabled_hand_buttons,
    find_seed,
    hand_button,
    hand_messages,
    on_turn,
    open_game,
    settle,
    two_humans,
    use_seed,
)


def an_ai_opens(game) -> bool:
    """Seat 0 (the host) does not start: an AI seat does."""
    return game.current_seat != 0


async def ai_opened_game(fake, bot):
    """Alice and two AIs (each moving 0.3 s after its turn comes); an AI starts round 1."""
    await bot.service.save_guild_settings(
        GuildSettings(fake.guild.id, ai_delay_s=0.3, turn_timeout_s=3600))
    use_seed(bot, find_seed("classic", 3, an_ai_opens, target=10))
    alice = fake.user("alice")
    game_id = await open_game(fake, bot, fake.channel("lama"), alice, ai_seats=2, target=10)
    view = bot.service.view(game_id)
    assert view.seats[0].user_id == alice.id and view.current_seat == 0  # after the AIs
    return alice, game_id


async def test_an_ais_quick_opening_move_turns_the_deal_dm_live_instead_of_a_second_dm(
    fake_discord, lamabot
) -> None:
    alice, game_id = await ai_opened_game(fake_discord, lamabot)
    (dm,) = hand_messages(fake_discord, alice, game_id)
    assert "It's your turn" in dm.text, dm.text
    assert enabled_hand_buttons(dm)


async def test_her_next_turn_turns_the_same_dm_live_while_she_keeps_up(fake_discord, lamabot):
    """She pressed a button a moment ago: her next turn is her one DM edited in place, not
    a new notification (before: a new DM every turn, 16-31 a game)."""
    fake, bot = fake_discord, lamabot
    alice, game_id = await ai_opened_game(fake, bot)
    (deal,) = hand_messages(fake, alice, game_id)
    drawn = await fake.click(alice, deal, hand_button(deal, "draw"))
    assert drawn.refused is None
    await settle(bot, game_id)
    assert bot.service.view(game_id).current_seat == 0  # her turn again, after the AIs
    (dm,) = hand_messages(fake, alice, game_id)
    assert dm.id == deal.id and len(fake.dms(alice)) == 1
    assert "It's your turn" in dm.text and enabled_hand_buttons(dm)


def alice_opens(game) -> bool:
    return game.current_seat == 0


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_turn_after_a_quiet_minute_comes_as_a_dm_of_its_own(
    fake_discord, lamabot, bot_clock
) -> None:
    """No move, no look and no DM of the game for a minute: her turn is a new DM (her phone
    buzzes), the one before loses its buttons."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, find_seed("classic", 2, alice_opens))
    alice, bob = fake.user("alice"), fake.user("bob")
    (deal,) = hand_messages(fake, alice, game_id)
    assert (await fake.click(alice, deal, hand_button(deal, "draw"))).refused is None
    bot_clock.advance(AT_TABLE_FOR)  # Bob takes a minute (on the bot's clock)
    assert (await fake.slash(bob, channel, "draw")).ephemeral
    await settle(bot, game_id)
    assert on_turn(fake, bot, game_id)[0] == alice
    older, newest = hand_messages(fake, alice, game_id)
    assert older.id == deal.id and not enabled_hand_buttons(older)
    assert "It's your turn" in newest.text and enabled_hand_buttons(newest)
