"""A seat handed to an AI mid-round (the player left) keeps its history: the table's last
moves name the human for the moves they made, and the AI ("🤖 Bob") only for the moves made
after it took the seat. Also once the table is drawn again from the move log after a restart.
"""

from __future__ import annotations

import pytest

from hosting import FakeClock
from hosting.options import TIMEOUTS_BEFORE_AI
from lama import QUIT, Game, RoundEnded
from loopback.running import run_bot
from store import GuildSettings
from tests.e2e.games import tables
from tests.e2e.round_tables import WAIT, a_bot
from tests.support.e2e import (
    find_seed,
    isolated,
    on_turn,
    open_game,
    settle,
    table,
    two_humans,
    wait_until,
    without_isolates,
)


async def three_humans_fast(fake, bot):
    """alice, bob and carol in #lama; an AI that takes a seat moves at once."""
    await bot.service.save_guild_settings(
        GuildSettings(fake.guild.id, ai_delay_s=0.0, turn_timeout_s=3600))
    channel = fake.channel("lama")
    users = fake.user("alice"), fake.user("bob"), fake.user("carol")
    return await open_game(fake, bot, channel, *users), channel


async def draw_then_leave(fake, bot, game_id: int, channel):
    """The player on turn draws, then leaves the game; the two others draw in turn, and the
    AI now in the leaver's seat quits that round for them. Returns the leaver's name."""
    leaver, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(leaver, channel, "draw")).ephemeral
    assert (await fake.slash(leaver, channel, "lama leave")).ephemeral
    for _ in range(2):
        user, _ = on_turn(fake, bot, game_id)
        assert (await fake.slash(user, channel, "draw")).ephemeral
    seat = next(s.index for s in bot.service.view(game_id).seats if s.user_id == leaver.id)
    await wait_until(lambda: bot.service.view(game_id).seats[seat].has_quit)
    return bot.service.view(game_id).seats[seat].name


def last_moves(message) -> str:
    return message.text.split("Last moves", 1)[1]


def names_the_leaver_then_the_ai(moves: str, name: str) -> None:
    name = isolated(name)
    assert f"\n{name} drew a card" in moves and f"🤖 {name} drew" not in moves, moves
    assert f"🤖 {name} quit the round" in moves, moves


async def test_a_leavers_earlier_move_keeps_their_name_on_the_table(fake_discord, lamabot):
    fake, bot = fake_discord, lamabot
    game_id, channel = await three_humans_fast(fake, bot)
    leaver = await draw_then_leave(fake, bot, game_id, channel)
    await settle(bot, game_id)
    names_the_leaver_then_the_ai(last_moves(table(fake, channel)), leaver)


async def test_a_leavers_earlier_move_keeps_their_name_when_a_restart_shows_it(
    fake_discord, tmp_path, bot_errors, monkeypatch
):
    """Nothing after the leave was shown before the process stopped: the next process draws
    the table's last moves from the move log, and still knows who made each."""
    fake = fake_discord
    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        game_id, channel = await three_humans_fast(fake, bot)
        monkeypatch.setattr(bot.renderer.queue, "add", lambda update, retry=False: None)
        leaver = await draw_then_leave(fake, bot, game_id, channel)
        await bot.renderer.flush_all()
    monkeypatch.undo()
    assert "drew a card" not in table(fake, channel).text  # the deal's table, untouched

    async with run_bot(fake, a_bot(fake, tmp_path), sync_commands=False) as bot:
        await wait_until(lambda: not bot.renderer.showing(), timeout=WAIT)
        await bot.renderer.flush_all()
    names_the_leaver_then_the_ai(last_moves(table(fake, channel)), leaver)


def her_third_time_out_ends_a_round(game: Game) -> bool:
    """Both quit whenever on turn (seat 0 by time-outs): seat 0's third quit ends a round (a
    deal for `find_seed`); a forced quit is no time-out."""
    time_outs = 0
    while not game.is_over:
        seat = game.current_seat
        events = game.apply(seat, QUIT)
        time_outs += seat == 0
        if time_outs == TIMEOUTS_BEFORE_AI:
            return any(isinstance(e, RoundEnded) for e in events)
    return False


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_player_timed_out_into_an_ai_keeps_their_name_for_the_round_they_ended(
    fake_discord, lamabot, bot_clock
):
    """Alice lets her turn time run out every time; Bob quits. Her third time-out in a row
    quits the round for her, which ends it, then an AI takes her seat: that quit and that
    round's result were still hers."""
    fake, bot, clock = fake_discord, lamabot, bot_clock
    seed = find_seed("classic", 2, her_third_time_out_ends_a_round, target=100)
    game_id, channel = await two_humans(fake, bot, seed=seed, turn_timeout=10, target=100)
    while not bot.service.view(game_id).seats[0].is_ai:
        user, _ = on_turn(fake, bot, game_id)
        if user.name == "alice":
            clock.advance(10)
            await bot.service.fire_due_timers()
        else:
            await bot.service.quit_round(game_id, user.id)
    await bot.renderer.flush_all()
    ended = bot.service.view(game_id).round_number - 1  # by her last time-out
    (closed,) = [m for m in tables(fake, channel) if f"Round {ended} is over" in m.text]
    alice = isolated("Alice")
    assert f"\n{alice} quit the round" in last_moves(closed), closed.text
    assert f"\n{alice}: " in closed.text, closed.text
    assert "🤖 Alice" not in without_isolates(closed.text), closed.text
