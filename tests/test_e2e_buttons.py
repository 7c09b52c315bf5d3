"""Every button shares one base: the owner check, Quit's question, errors always answered."""

from __future__ import annotations

from cogs.components import HAND_ITEMS
from tests.e2e_support import (
    Unchanged,
    enabled_hand_buttons,
    hand_button,
    hand_messages,
    on_turn,
    open_game,
    refused,
)


async def two_humans(fake, bot):
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"))
    return game_id, channel


async def test_a_press_on_someone_elses_hand_is_refused_and_changes_nothing(
    fake_discord, lamabot
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    owner, _ = on_turn(fake, bot, game_id)
    intruder = next(u for u in (fake.user("alice"), fake.user("bob")) if u is not owner)
    hand = hand_messages(fake, owner, game_id)[-1]
    before = (hand.embed_text, hand.custom_ids)
    async with Unchanged(fake, bot, game_id, channel):
        result = await fake.click(intruder, hand, hand_button(hand, "draw"))
    refused(result, "These buttons belong to another player.")
    assert (hand.embed_text, hand.custom_ids) == before
    assert bot.service.view(game_id).seats[bot.service.view(game_id).current_seat].user_id == (
        owner.id
    )


async def test_quit_asks_first_and_keep_playing_goes_back(fake_discord, lamabot) -> None:
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    player, _ = on_turn(fake, bot, game_id)
    hand = hand_messages(fake, player, game_id)[-1]
    async with Unchanged(fake, bot, game_id, channel):
        asked = await fake.click(player, hand, hand_button(hand, "quit"))
    assert asked.response_type == 7  # the hand itself asks, no new message
    assert "Quit this round? Your cards will still count." in hand.embed_text
    assert [b.label for b in hand.buttons] == ["Yes, quit", "Keep playing"]
    await fake.click(player, hand, hand_button(hand, "back"))
    assert hand_button(hand, "draw") in enabled_hand_buttons(hand)
    await fake.click(player, hand, hand_button(hand, "quit"))
    await fake.click(player, hand, hand_button(hand, "quitok"))
    await bot.renderer.flush_all()
    seat = bot.service.view(game_id).seat_of(player.id).index
    assert [m.action for m in await bot.store.games.list_moves(game_id) if m.seat == seat] == [
        {"type": "quit"}
    ]


async def test_a_button_whose_cog_is_gone_still_gets_an_answer(
    fake_discord, lamabot, bot_errors
) -> None:
    fake, bot = fake_discord, lamabot
    game_id, _ = await two_humans(fake, bot)
    player, _ = on_turn(fake, bot, game_id)
    hand = hand_messages(fake, player, game_id)[-1]
    await bot.remove_cog("Moves")  # its buttons go with it...
    bot.add_dynamic_items(*HAND_ITEMS)  # ...unless something left them registered
    result = await fake.click(player, hand, hand_button(hand, "draw"))
    refused(result, "Something went wrong")
    [logged] = bot_errors
    assert "the Moves cog is not loaded" in str(logged.exc_info[1])
    bot_errors.clear()
