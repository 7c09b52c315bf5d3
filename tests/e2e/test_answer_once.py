"""An interaction is answered once, also when Discord took an answer the bot never heard back
about: an edge proxy's 502 after Discord did the work. discord.py retries the 502 itself, and
Discord refuses the retry with 400, 40060 "Interaction has already been acknowledged". That
retry is the one refused answer: the bot then knows the interaction has its answer, and
neither the refusal path (cogs.errors.report) nor the defer clock's stand-in (cogs.timely)
sends Discord another one. (Before, each sent one more: three answers, two more refusals, and
a stand-in's "thinking…" taken silently was followed by a second first answer.)"""

from __future__ import annotations

import asyncio

import pytest

from cogs import timely, tree
from loopback.rest import DROPPED
from tests.support.e2e import OnTurn, offered_cards, settle, two_humans_on_turn, wait_until

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


@pytest.fixture
def handled(monkeypatch) -> list[tuple[timely.TimelyResponse, asyncio.Task]]:
    """Every slash command's response, with the task that handles it."""
    seen: list[tuple[timely.TimelyResponse, asyncio.Task]] = []
    real = tree.keep_in_time

    def keeping(interaction, deferral):
        response = real(interaction, deferral)
        task = asyncio.current_task()
        assert task is not None
        seen.append((response, task))
        return response

    monkeypatch.setattr(tree, "keep_in_time", keeping)
    return seen


@pytest.fixture
async def game(fake_discord, lamabot, handled) -> OnTurn:
    """alice and bob at a running game; `handled` holds only what the test itself sends."""
    started = await two_humans_on_turn(fake_discord, lamabot)
    handled.clear()
    return started


async def all_said(handled) -> None:
    """Every handler is done and nothing more goes out on its own (no stand-in due)."""
    await asyncio.gather(*(task for _, task in handled), return_exceptions=True)
    await wait_until(lambda: all(response.idle for response, _ in handled))


async def test_a_move_answer_discord_took_silently_is_not_answered_again(
        fake_discord, lamabot, handled, game):
    fake, bot = fake_discord, lamabot
    moves = bot.service.view(game.game_id).move_count
    fake.fail_next(CALLBACK, status=502, after_work=True)
    drawn = await fake.slash(game.mover, game.channel, "draw")
    await all_said(handled)
    assert len(fake.take_errors("double_response")) == 1  # discord.py's retry, nothing more
    assert drawn.response_type == 4 and drawn.ephemeral
    assert drawn.message.custom_ids  # the mover's hand, with its buttons
    assert drawn.followups == []  # no "something went wrong" below it
    assert bot.service.view(game.game_id).move_count == moves + 1
    await settle(bot, game.game_id)


async def test_a_stand_in_discord_took_silently_is_followed_by_the_answer_in_it(
        fake_discord, lamabot, handled, game, monkeypatch):
    fake, bot = fake_discord, lamabot
    held = asyncio.Event()  # the move waits until the stand-in is settled
    real_move = bot.service.routed_move

    async def slow_move(*args, **kwargs):
        await held.wait()
        return await real_move(*args, **kwargs)

    monkeypatch.setattr(bot.service, "routed_move", slow_move)
    monkeypatch.setattr(timely, "DEFER_AFTER", 0.05)
    fake.fail_next(CALLBACK, status=502, after_work=True)
    drawn = await fake.slash(game.mover, game.channel, "draw")  # the stand-in's "thinking…"
    assert drawn.response_type == 5 and drawn.ephemeral
    await wait_until(lambda: handled and handled[0][0].idle)
    held.set()
    shown = await drawn.edited()  # the answer replaces the "thinking…"
    await all_said(handled)
    assert len(fake.take_errors("double_response")) == 1  # discord.py's retry, nothing more
    assert shown.custom_ids and drawn.followups == []
    await settle(bot, game.game_id)


async def test_choices_discord_took_without_a_word_back_are_not_followed_by_none(
        fake_discord, lamabot, handled, game, bot_errors):
    fake = fake_discord
    fake.fail_next(CALLBACK, status=DROPPED, after_work=True)  # the reply never arrives
    choices = await fake.autocomplete(game.mover, game.channel, "play", focused="card")
    await all_said(handled)  # the clock used to stand in 1.5 s later, with no choices
    assert fake.take_errors("double_response") == []
    assert offered_cards(choices) == sorted(c.code for c in game.obs.legal_plays)
    # discord.py logs the reply it could not read ("Ignoring exception in autocomplete")
    assert {record.name for record in bot_errors} == {"discord.app_commands.tree"}
    bot_errors.clear()
