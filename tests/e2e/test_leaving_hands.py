"""A player who leaves a running game keeps no live hand: the seat is an AI's now. Their
newest hand message loses its buttons and says the hand is closed, be it a DM hand
(Renderer._close_for_ai edits the stored DM) or the private hand of a player who plays from
the table (an ephemeral message, edited through its interaction's token while that lasts).
Before, the private hand of a table player kept its live buttons after they left."""

from __future__ import annotations

from tests.support.e2e import OnTurn, names_game, on_turn, settle, table, two_humans_on_turn

CLOSED = "This hand is closed."


def hand_buttons(message, game_id: int) -> list[str]:
    return [c for c in message.custom_ids if names_game(c, "h", game_id)]


async def leaves(fake, bot, game: OnTurn, user) -> None:
    left = await fake.slash(user, game.channel, "lama leave")
    assert left.ephemeral and "You left the game" in left.text, left.text
    await settle(bot, game.game_id)


async def test_a_table_player_who_leaves_on_turn_keeps_no_live_private_hand(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game = await two_humans_on_turn(fake, bot)
    shown = await fake.click(game.mover, table(fake, game.channel), "My hand")
    assert shown.ephemeral and hand_buttons(shown.message, game.game_id)
    await leaves(fake, bot, game, game.mover)
    assert hand_buttons(shown.message, game.game_id) == [], shown.message.custom_ids
    assert shown.message.text == CLOSED, shown.message.text


async def test_a_slash_player_who_leaves_between_turns_keeps_no_private_hand(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game = await two_humans_on_turn(fake, bot)
    drawn = await fake.slash(game.mover, game.channel, "draw")
    assert drawn.ephemeral and hand_buttons(drawn.message, game.game_id)
    await settle(bot, game.game_id)
    assert on_turn(fake, bot, game.game_id)[0] != game.mover
    await leaves(fake, bot, game, game.mover)
    assert hand_buttons(drawn.message, game.game_id) == [], drawn.message.custom_ids
    assert drawn.message.text == CLOSED, drawn.message.text
