"""A private (ephemeral) hand answer carries its buttons as plain JSON: a press finds its
handler by custom id (`HandButton`, a DynamicItem), so nothing needs to wait for it. discord.py
keeps the view of every ephemeral `send_message` with a 15-minute timeout task (it does not
ask whether the view has anything to dispatch); one per move was ~9,000 tasks, views and
snapshots alive in a 100-game benchmark, every full garbage collection scanning them
(issue 14)."""

from __future__ import annotations

import asyncio

from tests.support.e2e import on_turn, settle, two_humans


def view_timeouts() -> list[asyncio.Task]:
    """discord.py's waiting timeouts of the views it keeps."""
    return [task for task in asyncio.all_tasks()
            if task.get_coro().__qualname__.endswith("__timeout_task_impl")]


async def test_a_private_hand_answer_leaves_no_view_waiting_for_a_timeout(
        fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    waiting = len(view_timeouts())
    mover, _ = on_turn(fake, bot, game_id)
    drawn = await fake.slash(mover, channel, "draw")
    assert drawn.ephemeral and drawn.message.components  # the hand, with its buttons
    assert len(view_timeouts()) == waiting


async def test_the_buttons_of_a_private_hand_answer_still_move(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot, seed=7)
    first, _ = on_turn(fake, bot, game_id)
    hand = (await fake.slash(first, channel, "draw")).message
    await settle(bot, game_id)
    second, _ = on_turn(fake, bot, game_id)
    await fake.slash(second, channel, "draw")
    await settle(bot, game_id)
    assert on_turn(fake, bot, game_id)[0] == first
    moves = bot.service.view(game_id).move_count
    pressed = await fake.click(first, hand, "Draw")  # the message as it stands now
    assert pressed.response_type is not None
    await settle(bot, game_id)
    assert bot.service.view(game_id).move_count == moves + 1
