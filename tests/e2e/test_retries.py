"""A call Discord refuses for now is retried until it goes through (issue 12): what a move
committed is shown after all, once, with the game's newest state."""

from __future__ import annotations

import logging

import pytest

from cogs.render.ledger import AT_TABLE_FOR
from hosting import FakeClock
from lama import DRAW
from lama import events as ev
from loopback.rest import DROPPED
from tests.e2e.round_tables import TABLE_BUTTONS, quit_for, quit_until_a_quit_would_end
from tests.support.crash import rematch_posts
from tests.support.e2e import (
    enabled_hand_buttons,
    hand_messages,
    isolated,
    open_game,
    two_humans,
    wait_until,
)

CREATE = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
WAIT = 30.0  # seconds: the first retry comes after 1 s; a loaded machine may take long


def user_on_turn(fake, bot, game_id):
    view = bot.service.view(game_id)
    return fake.users_by_id[view.seats[view.current_seat].user_id]


def live_hands(fake, user, game_id):
    return [m for m in hand_messages(fake, user, game_id) if enabled_hand_buttons(m)]


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_turn_ping_refused_six_times_with_429_is_sent_once_after_all(
    fake_discord, lamabot, bot_clock
):
    """The next player was quiet for a minute, so their turn comes as a new DM (one who keeps
    up has their hand DM edited in place instead: issue 34); Discord refuses its post six
    times with 429, and it is sent once after all."""
    fake, bot = fake_discord, lamabot
    game_id, _channel = await two_humans(fake, bot)
    mover = user_on_turn(fake, bot, game_id)
    next_player = next(u for u in (fake.user("alice"), fake.user("bob")) if u is not mover)
    dms_before = len(fake.dms(next_player))
    bot_clock.advance(AT_TABLE_FOR)  # no move, look or DM of the game for a minute
    fake.rate_limit_next(CREATE, times=6)  # discord.py gives up after five
    await quit_for(bot, game_id)
    await wait_until(lambda: live_hands(fake, next_player, game_id), timeout=WAIT)
    await bot.renderer.flush_all()
    assert len([h for h in fake.ratelimits.hits if h.route == CREATE]) == 0  # faults, not limits
    assert not fake.faults  # all six 429s were met
    assert len(fake.dms(next_player)) == dms_before + 1


def tables(fake, channel) -> list:
    return [m for m in fake.public_messages(channel) if m.components_v2]


async def test_a_rounds_table_whose_close_met_a_proxys_429_is_closed_after_all(
    fake_discord, lamabot
):
    """The quit leaves one player alone: round 1 ends (its table is closed, the edit that
    fails) and round 2's table is posted before the retry. The retry closes round 1's table,
    not the table that is the game's newest by then."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    first = tables(fake, channel)[-1]
    await quit_until_a_quit_would_end(bot, game_id, ev.RoundEnded)
    fake.rate_limit_next(EDIT, times=1, from_discord=False, message_id=first.id)
    events = await quit_for(bot, game_id)
    assert any(isinstance(e, ev.RoundStarted) and e.round_number == 2 for e in events)
    await wait_until(lambda: "Round 1 is over" in first.text, timeout=WAIT)
    await bot.renderer.flush_all()
    assert not fake.faults and first.buttons == []
    second = tables(fake, channel)[-1]
    assert second.id != first.id
    assert "round 2" in second.text and "Round 1 is over" not in second.text
    assert [b.label for b in second.buttons] == TABLE_BUTTONS  # live, for round 2


async def test_a_hand_edit_met_by_a_proxys_429_is_shown_after_all(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, _channel = await two_humans(fake, bot)
    mover = user_on_turn(fake, bot, game_id)
    hand = live_hands(fake, mover, game_id)[-1]
    shown_before = hand.text
    fake.rate_limit_next(EDIT, times=1, from_discord=False, message_id=hand.id)
    view = bot.service.view(game_id)
    await bot.service.human_move(game_id, view.seats[view.current_seat].user_id, DRAW)
    await wait_until(lambda: not fake.faults, timeout=WAIT)  # the redraw of the mover's hand
    await wait_until(lambda: not enabled_hand_buttons(hand), timeout=WAIT)  # not their turn
    await bot.renderer.flush_all()
    assert hand.text != shown_before  # the card drawn is in it
    assert not live_hands(fake, mover, game_id)


async def test_a_game_end_refused_with_503_is_posted_once_with_its_rematch(
    fake_discord, lamabot
):
    fake, bot = fake_discord, lamabot
    channel = fake.channel("lama")
    game_id = await open_game(fake, bot, channel, fake.user("alice"), fake.user("bob"),
                              target=10)
    await quit_until_a_quit_would_end(bot, game_id, ev.GameEnded)
    fake.fail_next(CREATE, status=503)  # discord.py retries 500, 502, 504 itself, not 503
    await quit_for(bot, game_id)

    def rematches():
        return rematch_posts(fake, channel, game_id)

    await wait_until(lambda: rematches(), timeout=WAIT)
    await bot.renderer.flush_all()
    assert len(rematches()) == 1


async def test_a_table_edit_whose_connection_dropped_is_a_warning_and_shown_after_all(
    fake_discord, lamabot
):
    """A call that gets no answer at all (the connection lost) passes like a 503: no error
    in the log, and the retry shows the table as the game now is."""
    fake, bot = fake_discord, lamabot
    game_id, channel = await two_humans(fake, bot)
    table = tables(fake, channel)[-1]
    mover = user_on_turn(fake, bot, game_id)
    fake.fail_next(EDIT, status=DROPPED, message_id=table.id)
    await fake.slash(mover, channel, "draw")
    view = bot.service.view(game_id)
    on_turn = f"On turn: {isolated(view.seats[view.current_seat].name)}"
    await wait_until(lambda: not fake.faults and on_turn in table.text, timeout=WAIT)
    await bot.renderer.flush_all()


async def test_in_play_every_post_shows_what_it_sent_and_is_not_edited_again(
    fake_discord, lamabot, caplog
):
    """A post's answer is compared with its request (cogs/render/handed_back.py) and edited
    when Discord handed back an older message: in play, with no repeat, the answer is what
    was sent (the deal's and a new round's tables, deals, pings), so no post costs an edit."""
    caplog.set_level(logging.INFO, logger="cogs.render")
    fake, bot = fake_discord, lamabot
    game_id, _channel = await two_humans(fake, bot)
    await quit_until_a_quit_would_end(bot, game_id, ev.RoundEnded)
    await quit_for(bot, game_id)  # round 2's table, its deal and ping
    view = bot.service.view(game_id)
    await bot.service.human_move(game_id, view.seats[view.current_seat].user_id, DRAW)
    await bot.renderer.flush_all()
    assert bot.service.view(game_id).round_number == 2
    assert [r.getMessage() for r in caplog.records if r.funcName == "_handed_back"] == []
