"""Every button shares one base: the owner check, Quit's question, errors always answered."""

from __future__ import annotations

from cogs.components import HAND_ITEMS
from hosting import Status
from tests.support.e2e import (
    Unchanged,
    bot_with_instant_ais,
    enabled_hand_buttons,
    hand_button,
    hand_messages,
    on_turn,
    refused,
    settle,
    table,
    two_humans,
    wait_until,
)


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
    assert "nothing answers HandButton" in str(logged.exc_info[1])  # the Moves cog is gone
    bot_errors.clear()


async def test_a_player_pressing_against_instant_ais_gets_a_live_hand_each_time_their_turn_returns(
    fake_discord, tmp_path, bot_errors
) -> None:
    """The hand a press answered is out of date once the AIs have moved after it. When the
    REST budget is short (Discord's real 5 s channel window) and their moves reach the renderer
    together with the press, the player still gets their turn ping (it used to be skipped as
    'already shown', and the game waited for the turn timer)."""
    fake = fake_discord
    player, channel = fake.user("alice"), fake.channel("lama")
    async with bot_with_instant_ais(fake, tmp_path) as bot:
        await fake.slash(player, channel, "lama new", ai_seats=3, target=10)
        await fake.slash(player, channel, "lama start")
        game_id = bot.service.game_in_channel(channel.id).game_id
        def live_hand():
            hands = hand_messages(fake, player, game_id)
            return hands[-1] if hands and enabled_hand_buttons(hands[-1]) else None

        for _ in range(150):  # presses as they become possible, none waiting for the renderer
            if bot.service.view(game_id).status is not Status.RUNNING:
                return
            try:
                await wait_until(lambda: live_hand() is not None or
                                 bot.service.view(game_id).status is not Status.RUNNING)
            except TimeoutError:
                # The REST budget holds a sixth DM in 5 s until Discord's channel window
                # (5.15 s) has passed: the hand is missing only if it still is once the AIs
                # have moved and every update is on Discord.
                await settle(bot, game_id)
                running = bot.service.view(game_id).status is Status.RUNNING
                assert live_hand() is not None or not running, (
                    "the player is on turn but has no live hand")
            if (hand := live_hand()) is not None:
                live = enabled_hand_buttons(hand)
                cards = [c for c in live if c.rsplit(":", 1)[1] not in ("draw", "quit", "back")]
                await fake.click(player, hand, (cards or live)[0])
    raise AssertionError("the game did not end")


async def test_draw_and_quit_show_the_same_emoji_under_the_table_and_in_the_hand(
    fake_discord, lamabot
) -> None:
    """One picture per action wherever it is pressed: Draw was ➕ under the table and 🃏 in
    the hand, where 🃏 is the table's My hand."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    hand, under_table = hand_messages(fake, mover, game_id)[-1], table(fake, channel)
    for label in ("Draw", "Quit round"):
        assert hand.button(label).emoji == under_table.button(label).emoji, label
