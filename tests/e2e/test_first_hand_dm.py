"""A player's first hand DM of a game, when an AI opens the round a moment after the deal.

The deal sends every player their hand ("Not your turn" but for the starter). Where an AI
starts and its opening move comes at once, the player next on turn used to get a second DM
right behind the first ("It's your turn"), the first left behind showing "Not your turn". The
deal that went out a moment ago is their one DM now: it turns live in place (their phone has
just buzzed for it), and only a turn that comes later is a new DM."""

from __future__ import annotations

from store import GuildSettings
from tests.support.e2e import (
    enabled_hand_buttons,
    find_seed,
    hand_button,
    hand_messages,
    open_game,
    settle,
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


async def test_the_turn_after_the_deal_dm_comes_as_a_dm_of_its_own(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    alice, game_id = await ai_opened_game(fake, bot)
    (deal,) = hand_messages(fake, alice, game_id)
    drawn = await fake.click(alice, deal, hand_button(deal, "draw"))
    assert drawn.refused is None
    await settle(bot, game_id)
    assert bot.service.view(game_id).current_seat == 0  # her turn again, after the AIs
    older, newest = hand_messages(fake, alice, game_id)
    assert older.id == deal.id and not enabled_hand_buttons(older)
    assert "It's your turn" in newest.text and enabled_hand_buttons(newest)
