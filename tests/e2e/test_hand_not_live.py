"""A hand that is not live (not its player's turn) is not redrawn as others move: that would
cost a REST call per move per player. So it shows only what stays true, the player's own
cards, and sends them to the live table for the top card and whose turn it is; it never
shows a top card that the next move makes stale."""

from __future__ import annotations

from cogs.text import card_label
from lama import DRAW, Game
from tests.support.e2e import (
    find_seed,
    hand_button,
    hand_messages,
    on_turn,
    open_game,
    settle,
    table,
    use_seed,
)


def the_next_player_can_change_the_top_card(game: Game) -> bool:
    """The starter draws; the next player then has a card to play of another value."""
    game.apply(game.current_seat, DRAW)
    top = game.top_card.code
    return any(card.code != top for card in game.legal_plays(game.current_seat))


async def test_a_hand_waiting_for_others_shows_no_top_card_but_points_to_the_table(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    use_seed(bot, find_seed("classic", 3, the_next_player_can_change_the_top_card))
    channel = fake.channel("lama")
    game_id = await open_game(
        fake, bot, channel, fake.user("alice"), fake.user("bob"), fake.user("carol"))
    first, _ = on_turn(fake, bot, game_id)
    dm_hand = hand_messages(fake, first, game_id)[-1]
    await fake.click(first, dm_hand, hand_button(dm_hand, "draw"))
    await settle(bot, game_id)
    second, obs = on_turn(fake, bot, game_id)
    card = next(c for c in obs.legal_plays if c.code != obs.top_card.code)
    played = await fake.slash(second, channel, "play", card=card.code)
    assert played.ephemeral, played.text
    await settle(bot, game_id)

    waiting = hand_messages(fake, first, game_id)[-1].text  # as the first player reads it now
    assert "Top card" not in waiting and "Draw pile" not in waiting, waiting
    assert f"Not your turn: the top card and who is playing are on the table in <#{channel.id}>." \
        in waiting, waiting
    top = card_label(card.code, "en", "classic")
    assert f"Top card: {top}" in table(fake, channel).text  # the live table has the new one
