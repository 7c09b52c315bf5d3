"""A player who plays from their private hand (the table's My hand, then its buttons) against
AIs that move at once: the AIs' moves can reach the renderer before the press's own answer is
out, which shows the state of the press (not your turn). The turn that comes back must still
turn that hand live, once its answer is out; it used to be skipped as "its own response shows
this state already", and the player on turn had no live hand anywhere."""

from __future__ import annotations

from hosting import Status
from tests.support.e2e import (
    bot_with_instant_ais,
    enabled_hand_buttons,
    settle,
    table,
    wait_until,
)


async def test_a_private_hand_pressed_against_instant_ais_turns_live_each_time(
    fake_discord, tmp_path, bot_errors
) -> None:
    fake = fake_discord
    player, channel = fake.user("alice"), fake.channel("lama")
    async with bot_with_instant_ais(fake, tmp_path) as bot:
        await fake.slash(player, channel, "lama new", ai_seats=2, target=10)
        await fake.slash(player, channel, "lama start")
        game_id = bot.service.game_in_channel(channel.id).game_id
        await wait_until(lambda: bot.service.view(game_id).current_seat == 0)
        await settle(bot, game_id)
        hand = (await fake.click(player, table(fake, channel), "My hand")).message
        presses = 0
        while bot.service.view(game_id).status is Status.RUNNING and presses < 40:
            await settle(bot, game_id)
            view = bot.service.view(game_id)
            if view.status is not Status.RUNNING or view.current_seat != 0:
                break  # a new round's deal: its hand comes as a DM, not this one
            live = enabled_hand_buttons(hand)
            assert live, f"on turn at move {view.move_count}, the private hand is not live"
            await fake.click(player, hand, live[0])
            presses += 1
        assert presses >= 2
