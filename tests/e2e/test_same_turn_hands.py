"""A press on an older hand message whose close has not landed yet, when it shows the same turn
as the player's newest hand (the same game, round and move, their turn), plays: both offer the
same moves, and the player pressed the one they looked at. The pressed message becomes their
newest hand (the older close on its way to it is dropped) and the newer one is closed instead
(a private one is deleted: one private hand on screen at a time).
Before, a player whose turn DM still had live buttons looked at `/lama hand`, pressed a card
on the DM, and the move was dropped ("no longer live"): they had to press again."""

from __future__ import annotations

import pytest

from tests.support.e2e import (
    OnTurn,
    closes_held,
    enabled_hand_buttons,
    hand_button,
    hand_messages,
    on_turn,
    settle,
    table,
    two_humans_on_turn,
)

NO_LONGER_LIVE = "This message is no longer live"


@pytest.fixture
async def game(fake_discord, lamabot) -> OnTurn:
    return await two_humans_on_turn(fake_discord, lamabot)


async def plays(fake, bot, game: OnTurn, pressed_on) -> None:
    """Draw pressed on the older ``pressed_on`` moves the game, and that message shows the
    hand after the move."""
    moves = bot.service.view(game.game_id).move_count
    drawn = await fake.click(game.mover, pressed_on, hand_button(pressed_on, "draw"))
    assert drawn.response_type == 7 and NO_LONGER_LIVE not in drawn.message.text, drawn
    assert bot.service.view(game.game_id).move_count == moves + 1
    assert on_turn(fake, bot, game.game_id)[0] != game.mover


async def test_a_press_on_the_turn_dm_after_lama_hand_plays_and_closes_the_private_hand(
    fake_discord, lamabot, game
) -> None:
    fake, bot = fake_discord, lamabot
    dm_hand = hand_messages(fake, game.mover, game.game_id)[-1]
    async with closes_held(bot):
        private = await fake.slash(game.mover, game.channel, "lama hand")
        assert private.ephemeral and enabled_hand_buttons(private.message)
        assert enabled_hand_buttons(dm_hand)  # its close is still on its way
        await plays(fake, bot, game, dm_hand)
    await settle(bot, game.game_id)
    assert NO_LONGER_LIVE not in dm_hand.text and "Not your turn" in dm_hand.text, dm_hand.text
    assert private.message.deleted, private.message.text


async def test_a_press_on_an_older_private_hand_of_the_same_turn_plays(
    fake_discord, lamabot, game
) -> None:
    fake, bot = fake_discord, lamabot
    async with closes_held(bot):
        older = await fake.click(game.mover, table(fake, game.channel), "My hand")
        newer = await fake.click(game.mover, table(fake, game.channel), "My hand")
        await plays(fake, bot, game, older.message)
    await settle(bot, game.game_id)
    assert NO_LONGER_LIVE not in older.message.text, older.message.text
    assert newer.message.deleted, newer.message.text
