"""A hand message that a newer one replaced loses its buttons (cogs/hands.py); until that close
has landed (it waits for the REST budget, or it failed), a press on the old one moves nothing
and gets the same answer on a DM and on a private hand: the pressed message itself shows that
it is no longer live, without its buttons (free: the press's own answer). Before, the old DM
hand answered "It's not your turn" and the old private hand played the card."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from tests.e2e_support import (
    OnTurn,
    enabled_hand_buttons,
    hand_button,
    hand_messages,
    on_turn,
    settle,
    table,
    two_humans_on_turn,
)

NO_LONGER_LIVE = "This message is no longer live"


@contextlib.asynccontextmanager
async def closes_held(bot):
    """Inside, closing an older hand waits (a busy REST budget); the closes go on after."""
    hands, close, released = bot.renderer.hands, bot.renderer.hands.close, asyncio.Event()

    async def held(*args, **kwargs):
        await released.wait()
        await close(*args, **kwargs)

    hands.close = held
    try:
        yield
    finally:
        released.set()


@pytest.fixture
async def game(fake_discord, lamabot) -> OnTurn:
    return await two_humans_on_turn(fake_discord, lamabot)


async def answered_as_replaced(fake, bot, game: OnTurn, old) -> None:
    """The player pressed Draw on the ``old`` hand message: it turns into a closed hand, and
    the game does not move."""
    moves = bot.service.view(game.game_id).move_count
    pressed = await fake.click(game.mover, old, hand_button(old, "draw"))
    assert pressed.response_type == 7, pressed  # the pressed message, redrawn
    assert NO_LONGER_LIVE in pressed.message.text, pressed.message.text
    assert enabled_hand_buttons(pressed.message) == []
    assert bot.service.view(game.game_id).move_count == moves


async def test_a_press_on_a_replaced_dm_hand_closes_it_and_moves_nothing(
    fake_discord, lamabot, game
) -> None:
    fake, bot, mover = fake_discord, lamabot, game.mover
    dm_hand = hand_messages(fake, mover, game.game_id)[-1]
    async with closes_held(bot):
        shown = await fake.click(mover, table(fake, game.channel), "My hand")  # the newer
        await fake.click(mover, shown.message, hand_button(shown.message, "draw"))
        assert on_turn(fake, bot, game.game_id)[0] != mover
        assert enabled_hand_buttons(dm_hand)  # its close is still on its way
        await answered_as_replaced(fake, bot, game, dm_hand)
    await settle(bot, game.game_id)


async def test_a_press_on_a_replaced_private_hand_closes_it_and_moves_nothing(
    fake_discord, lamabot, game
) -> None:
    fake, bot, mover = fake_discord, lamabot, game.mover
    async with closes_held(bot):
        older = await fake.click(mover, table(fake, game.channel), "My hand")
        newer = await fake.click(mover, table(fake, game.channel), "My hand")
        assert enabled_hand_buttons(older.message)  # its close is still on its way
        await answered_as_replaced(fake, bot, game, older.message)
    await settle(bot, game.game_id)
    drawn = await fake.click(mover, newer.message, hand_button(newer.message, "draw"))
    assert drawn.response_type == 7 and NO_LONGER_LIVE not in drawn.message.text
    assert on_turn(fake, bot, game.game_id)[0] != mover  # the newest hand moves
