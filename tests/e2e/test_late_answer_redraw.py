"""A move whose answer came late: the store was slow, so a "thinking…" stood in for it
(cogs/timely.py), and the handler's answer, the mover's hand after their move, replaces it
when it is ready. An AI that moves at once makes it the mover's turn again meanwhile, and
the turn's ping redraws the mover's newest hand, which is that answer, through its token.
The redraw must wait for the answer to land: done before it, the late answer (an older
state, not their turn) overwrote it, and the mover had no live hand on their own turn."""

from __future__ import annotations

import asyncio

from cogs import timely
from hosting import Status
from tests.support.e2e import bot_with_instant_ais, enabled_hand_buttons, settle, wait_until


async def test_a_turn_ping_waits_for_the_late_answer_it_redraws(
        fake_discord, tmp_path, monkeypatch, bot_errors) -> None:
    fake = fake_discord
    player, channel = fake.user("alice"), fake.channel("lama")
    async with bot_with_instant_ais(fake, tmp_path) as bot:
        await fake.slash(player, channel, "lama new", ai_seats=1, target=40)
        await fake.slash(player, channel, "lama start")
        game_id = bot.service.game_in_channel(channel.id).game_id
        await wait_until(lambda: bot.service.view(game_id).current_seat == 0)
        await settle(bot, game_id)
        moves = bot.service.view(game_id).move_count

        move_may_go, answer_may_go = asyncio.Event(), asyncio.Event()
        real_move, real_deliver = bot.service.routed_move, timely.TimelyResponse._deliver_new

        async def slow_move(*args, **kwargs):
            await move_may_go.wait()
            return await real_move(*args, **kwargs)

        async def late_delivery(self, *args, **kwargs):
            await answer_may_go.wait()
            return await real_deliver(self, *args, **kwargs)

        monkeypatch.setattr(bot.service, "routed_move", slow_move)
        monkeypatch.setattr(timely.TimelyResponse, "_deliver_new", late_delivery)
        monkeypatch.setattr(timely, "DEFER_AFTER", 0.05)
        drawn = await fake.slash(player, channel, "draw")
        assert drawn.response_type == 5  # "thinking…" stood in
        move_may_go.set()
        # the draw and the AI's move are in: alice is on turn again, her ping under way
        await wait_until(lambda: bot.service.view(game_id).move_count >= moves + 2
                         or bot.service.view(game_id).status is not Status.RUNNING)
        await asyncio.sleep(0.3)  # room for a redraw that does not wait
        answer_may_go.set()
        await wait_until(lambda: not any(task.get_name().startswith("CommandTree-invoker")
                                         for task in asyncio.all_tasks()))
        await settle(bot, game_id)
        await bot.renderer.flush_all()
        view = bot.service.view(game_id)
        # the AI's first move of the round neither ends it nor the game: alice's turn again
        assert view.status is Status.RUNNING and view.current_seat == 0 and view.round_number == 1
        await wait_until(lambda: bool(enabled_hand_buttons(drawn.message)))
