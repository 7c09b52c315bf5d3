"""A press on a private (ephemeral) hand redraws that same message in its answer: the message
stays the player's newest hand, so nothing closes it afterwards. Before, the press's record
and the one of the interaction that made the message (My hand, /lama hand, a /play answer)
were taken for two messages: the bot then edited "no longer live" onto the very message the
player had just pressed, through the older interaction's token; when that press ended a round
whose next one its player starts, their only hand said "no longer live" and they had no live
buttons anywhere."""

from __future__ import annotations

from lama import QUIT, Game
from tests.support.e2e import (
    enabled_hand_buttons,
    find_seed,
    hand_button,
    on_turn,
    open_game,
    settle,
    table,
    two_humans_on_turn,
    use_seed,
)

NO_LONGER_LIVE = "This message is no longer live"


def the_second_player_quits_last_and_starts_round_2(game: Game) -> bool:
    """Two players: the starter quits, the other one (not forced out) quits too and so, the
    last to quit, starts round 2 (a deal for `find_seed`)."""
    starter = game.current_seat
    game.apply(starter, QUIT)
    other = game.current_seat
    if game.round_number != 1 or other == starter or other is None:
        return False
    game.apply(other, QUIT)
    return game.round_number == 2 and game.current_seat == other


async def test_a_private_hand_pressed_stays_the_players_hand_while_others_move(
    fake_discord, lamabot
) -> None:
    fake, bot, channel = fake_discord, lamabot, fake_discord.channel("lama")
    game_id = await open_game(
        fake, bot, channel, fake.user("alice"), fake.user("bob"), fake.user("carol"))
    mover, _ = on_turn(fake, bot, game_id)
    shown = await fake.click(mover, table(fake, channel), "My hand")
    drawn = await fake.click(mover, shown.message, hand_button(shown.message, "draw"))
    assert drawn.response_type == 7 and drawn.message is shown.message
    await settle(bot, game_id)
    next_player, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(next_player, channel, "draw")).ephemeral
    await settle(bot, game_id)

    assert on_turn(fake, bot, game_id)[0] not in (mover, next_player)
    assert NO_LONGER_LIVE not in shown.message.text, shown.message.text
    assert "Not your turn" in shown.message.text, shown.message.text


async def test_the_player_whose_press_on_a_private_hand_ends_a_round_starts_the_next_on_it(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    use_seed(bot, find_seed("classic", 2, the_second_player_quits_last_and_starts_round_2))
    game = await two_humans_on_turn(fake, bot)
    assert (await fake.slash(game.mover, game.channel, "quit")).ephemeral
    await settle(bot, game.game_id)
    last, _ = on_turn(fake, bot, game.game_id)
    shown = await fake.click(last, table(fake, game.channel), "My hand")
    await fake.click(last, shown.message, hand_button(shown.message, "quit"))
    await fake.click(last, shown.message, hand_button(shown.message, "quitok"))
    await settle(bot, game.game_id)

    assert bot.service.view(game.game_id).round_number == 2
    assert on_turn(fake, bot, game.game_id)[0] == last
    assert NO_LONGER_LIVE not in shown.message.text, shown.message.text
    assert "round 2" in shown.message.text, shown.message.text
    assert enabled_hand_buttons(shown.message), shown.message.buttons
