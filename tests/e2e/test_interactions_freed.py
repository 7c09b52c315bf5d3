"""An interaction is freed the moment its handler is done, without the garbage collector.

discord.py's `Interaction` caches its `response`, and the response points back at the
interaction: a reference cycle, so each interaction (with its member, user, namespace and
our answer clock, some 15 objects) waited for a collection. A LamaBot answer waits for its
move's commit, so under load its interaction outlived two young collections and died in the
oldest generation: full collections then swept some 20,000 of them at a time, 10-50 ms during
which no one was answered (issue 14). `keep_in_time` breaks the cycle when the handler's task
ends. With the collector off, these tests count the interactions a collection would free:
none. A hand shown as an interaction's answer keeps only its token, to edit or delete it.
"""

from __future__ import annotations

import asyncio
import gc

import discord
import pytest

from tests.support.e2e import draw_from_my_hand, on_turn, two_humans, wait_until

# discord.py's task names: slash commands and autocomplete, views' items, DynamicItems
_HANDLERS = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item")


def interactions_alive() -> int:
    return sum(1 for obj in gc.get_objects() if isinstance(obj, discord.Interaction))


@pytest.fixture
def no_collector():
    """The collector off from here: what a cycle holds stays in `gc.get_objects()`."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def interactions_left_to_the_collector() -> int:
    """Once every handler is done: how many interactions only a collection frees."""
    await wait_until(lambda: not any(task.get_name().startswith(_HANDLERS)
                                     for task in asyncio.all_tasks()))
    alive = interactions_alive()
    gc.collect()
    return alive - interactions_alive()


async def test_a_slash_move_leaves_no_interaction_to_the_collector(
        fake_discord, lamabot, no_collector):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    drawn = await fake.slash(mover, channel, "draw")
    assert drawn.message is not None and drawn.message.ephemeral
    assert await interactions_left_to_the_collector() == 0


async def test_an_autocomplete_leaves_no_interaction_to_the_collector(
        fake_discord, lamabot, no_collector):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    await fake.autocomplete(mover, channel, "play", focused="card")  # the deal decides the choices
    assert await interactions_left_to_the_collector() == 0


async def test_a_button_press_leaves_no_interaction_to_the_collector(
        fake_discord, lamabot, no_collector):
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, _ = on_turn(fake, bot, game_id)
    await draw_from_my_hand(fake, bot, game_id, channel, mover)
    assert await interactions_left_to_the_collector() == 0


async def test_a_hand_shown_in_an_answer_keeps_its_token_not_its_interaction(
        fake_discord, lamabot):
    """The mover's private hand is edited or deleted later through its interaction's token
    (for up to 15 minutes): its record keeps the token, and the interaction, with its
    member, user and response, is freed once the answer is out (issue 33)."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    mover, obs = on_turn(fake, bot, game_id)
    drawn = await fake.slash(mover, channel, "draw")
    assert drawn.message is not None and drawn.message.ephemeral
    await wait_until(lambda: not bot.renderer.queue.queued() and not any(
        task.get_name().startswith(_HANDLERS) for task in asyncio.all_tasks()))
    shown = bot.renderer.hands.ledger.newest(game_id, obs.seat)
    assert shown is not None and shown.reach is not None  # still reachable, to redraw
    gc.collect()
    assert interactions_alive() == 0
