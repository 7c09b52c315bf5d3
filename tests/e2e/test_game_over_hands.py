"""Once the game is over, only a player's newest hand message says so. An older one that was
still live is closed as it was: the hand it showed, no buttons, and no "Game over" line (an
older private one is deleted: one private hand on screen at a time). Before,
a player who ended the game by slash command read "Game over" twice: on the answer to their
last move and on the answer before it, which their turn had made live again."""

from __future__ import annotations

from hosting import Status
from lama import DRAW, QUIT, Game
from tests.support.e2e import enabled_hand_buttons, find_seed, on_turn, settle, two_humans

GAME_OVER = "Game over"
TARGET = 10


def both_draw_then_both_quit_and_the_game_ends(game: Game) -> bool:
    """Two players: the starter draws, the other draws, the starter quits, the other quits,
    and that round's points end the game (a deal for `find_seed`)."""
    starter = game.current_seat
    try:
        game.apply(starter, DRAW)
        other = game.current_seat
        game.apply(other, DRAW)
        game.apply(starter, QUIT)
        game.apply(other, QUIT)
    except Exception:
        return False
    return other != starter and game.is_over


async def test_an_older_private_hand_does_not_say_game_over_again(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    seed = find_seed("classic", 2, both_draw_then_both_quit_and_the_game_ends, target=TARGET)
    game_id, channel = await two_humans(fake, bot, seed=seed, target=TARGET)
    starter, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(starter, channel, "draw")).ephemeral
    await settle(bot, game_id)
    other, _ = on_turn(fake, bot, game_id)
    older = await fake.slash(other, channel, "draw")
    await settle(bot, game_id)
    assert (await fake.slash(starter, channel, "quit")).ephemeral
    await settle(bot, game_id)
    assert enabled_hand_buttons(older.message)  # the other player's turn: live again
    last = await fake.slash(other, channel, "quit")
    await settle(bot, game_id)

    assert bot.service.view(game_id).status is Status.FINISHED
    assert GAME_OVER in last.text, last.text
    assert older.message.deleted  # private: one on screen at a time, and no second "Game over"
