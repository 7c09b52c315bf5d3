"""A press on an older hand message whose close has not landed yet, when it shows the same turn
as the player's newest hand (the same game, round and move, their turn), plays: both offer the
same moves, and the player pressed the one they looked at. The pressed message becomes their
newest hand (the older close on its way to it is dropped) and the newer one is closed instead
(a private one is deleted: one private hand on screen at a time).
Before, a player whose turn DM still had live buttons looked at `/lama hand`, pressed a card
on the DM, and the move was dropped ("no longer live"): they had to press again."""

from __future__ import annotations

import pytest

from lama import DRAW, QUIT, Game, Play
from tests.e2e.round_tables import quit_for
from tests.support.e2e import (
    OnTurn,
    closes_held,
    enabled_hand_buttons,
    find_seed,
    hand_button,
    hand_messages,
    on_turn,
    settle,
    table,
    two_humans,
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


def alone_with_two_plays(game: Game) -> bool:
    """The starter draws, the other seat quits: the starter plays on alone, with a card that
    is still theirs to play after another one (a deal for `find_seed`)."""
    starter = game.current_seat
    game.apply(starter, DRAW)
    game.apply(game.current_seat, QUIT)
    return game.current_seat == starter and bool(two_plays(game, starter))


def two_plays(game: Game, seat: int) -> tuple[str, str] | None:
    """Two cards the seat may play one after the other, the second playable before the
    first too (a hand showing the turn before the first offers it)."""
    before = game.legal_plays(seat)
    for first in before:
        after = game.clone()
        after.apply(seat, Play(first))
        if after.current_seat == seat:
            both = [card for card in after.legal_plays(seat) if card in before]
            if both:
                return first.code, both[0].code
    return None


async def test_a_press_on_the_hand_an_older_one_took_over_from_moves_nothing(
    fake_discord, lamabot
) -> None:
    """The turn DM (older) plays while a private hand of the same turn (newer) is live, and
    the player is still on turn (alone in the round). The private hand shows the turn before
    that move: a card pressed on it before its close lands moves nothing, though the card
    could be played now too (it played: a move the player made on a hand that was gone)."""
    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, alone_with_two_plays)
    game_id, channel = await two_humans(fake, bot, seed=seed)
    mover, _ = on_turn(fake, bot, game_id)
    await bot.service.human_move(game_id, mover.id, DRAW)
    await quit_for(bot, game_id)  # the other seat
    await settle(bot, game_id)
    assert on_turn(fake, bot, game_id)[0] is mover
    first, second = two_plays(bot.service.registry.get(game_id).running_game,
                              bot.service.view(game_id).current_seat)
    dm_hand = hand_messages(fake, mover, game_id)[-1]
    async with closes_held(bot):
        private = (await fake.slash(mover, channel, "lama hand")).message
        moves = bot.service.view(game_id).move_count
        played = await fake.click(mover, dm_hand, hand_button(dm_hand, first))
        assert NO_LONGER_LIVE not in played.message.text
        assert bot.service.view(game_id).move_count == moves + 1
        stale = await fake.click(mover, private, hand_button(private, second))
        assert bot.service.view(game_id).move_count == moves + 1, "the stale hand played"
        assert NO_LONGER_LIVE in stale.message.text, stale.message.text
    await settle(bot, game_id)
