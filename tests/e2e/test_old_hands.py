"""A hand message that a newer one replaced loses its buttons (cogs/render/hands.py); until that
close has landed (it waits for the REST budget, or it failed), a press on the old one, once it shows
an older state than the newest (a move was made since), moves nothing and gets the same answer
on a DM and on a private hand: the pressed message itself shows that it is no longer live,
without its buttons (free: the press's own answer), and it keeps what it showed: its own round
and cards, never the hand as it is now. Before, the old DM hand answered "It's not your turn"
and the old private hand played the card; then the old message turned into the current hand
(the next round's cards on a DM of the round before). An old hand that shows the same turn as
the newest plays: tests/e2e/test_same_turn_hands.py."""

from __future__ import annotations

import pytest

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
    the_first_quit_ends_round_1,
    two_humans_on_turn,
    use_seed,
)

NO_LONGER_LIVE = "This message is no longer live"


@pytest.fixture
async def game(fake_discord, lamabot) -> OnTurn:
    return await two_humans_on_turn(fake_discord, lamabot)


def cards_shown(message) -> tuple[str, list[str]]:
    """What a hand message shows of the hand: its title (the round) and its cards."""
    embed = message.embeds[0]
    lines = embed["description"].split("\n")
    held = next(i for i, line in enumerate(lines) if line.startswith("You hold"))
    return embed["title"], lines[held:held + 2]


async def answered_as_replaced(fake, bot, game: OnTurn, old) -> None:
    """The player pressed Draw on the ``old`` hand message: it turns into a closed hand that
    still shows its own cards, and the game does not move."""
    moves = bot.service.view(game.game_id).move_count
    showed = cards_shown(old)
    pressed = await fake.click(game.mover, old, hand_button(old, "draw"))
    assert pressed.response_type == 7, pressed  # the pressed message, redrawn
    assert NO_LONGER_LIVE in pressed.message.text, pressed.message.text
    assert pressed.message.buttons == []
    assert cards_shown(pressed.message) == showed, pressed.message.text
    assert "Top card" not in pressed.message.text  # no stale "your turn" part either
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
        drawn = await fake.click(mover, newer.message, hand_button(newer.message, "draw"))
        assert drawn.response_type == 7 and NO_LONGER_LIVE not in drawn.message.text
        assert on_turn(fake, bot, game.game_id)[0] != mover  # the newest hand moved
        assert enabled_hand_buttons(older.message)  # its close is still on its way
        await answered_as_replaced(fake, bot, game, older.message)
    await settle(bot, game.game_id)


async def test_a_press_on_a_dm_hand_of_the_round_before_keeps_that_rounds_cards(
    fake_discord, lamabot
) -> None:
    """The player on turn quits by /quit, which ends round 1: their private answer shows
    round 2's hand, the DM of round 1 is the older one. Pressed, it stays round 1's."""
    fake, bot = fake_discord, lamabot
    use_seed(bot, find_seed("classic", 2, the_first_quit_ends_round_1))
    game = await two_humans_on_turn(fake, bot)
    round_1 = hand_messages(fake, game.mover, game.game_id)[-1]
    async with closes_held(bot):
        quit_ = await fake.slash(game.mover, game.channel, "quit")
        assert quit_.ephemeral and "round 2" in quit_.text, quit_.text
        assert enabled_hand_buttons(round_1)  # its close is still on its way
        await answered_as_replaced(fake, bot, game, round_1)
        assert "round 1" in round_1.text and "round 2" not in round_1.text, round_1.text
    await settle(bot, game.game_id)


async def test_a_dm_hand_of_the_round_before_closes_as_that_rounds_hand(
    fake_discord, lamabot
) -> None:
    """The same round change with nothing held: the DM of round 1 loses its buttons, and
    shows round 1's cards, not the hand of round 2 that replaced it."""
    fake, bot = fake_discord, lamabot
    use_seed(bot, find_seed("classic", 2, the_first_quit_ends_round_1))
    game = await two_humans_on_turn(fake, bot)
    round_1 = hand_messages(fake, game.mover, game.game_id)[-1]
    showed = cards_shown(round_1)
    assert "round 2" in (await fake.slash(game.mover, game.channel, "quit")).text
    await settle(bot, game.game_id)
    assert round_1.buttons == [] and NO_LONGER_LIVE in round_1.text, round_1.text
    assert cards_shown(round_1) == showed, round_1.text
