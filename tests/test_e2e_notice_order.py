"""A notice about a round reads above the next round's table. "Bob ran out of time" is posted
by the game's table task, in turn with its tables, so hand messages that are slow to go out
(DMs wait behind turn pings and Discord's limits when the bot is busy) cannot let the next
round's table overtake it; and nothing waits for anything more than before."""

from __future__ import annotations

import pytest

from hosting import FakeClock
from lama import QUIT, Game
from tests.crash_support import tables_of_round
from tests.e2e_support import find_seed, on_turn, open_game, settle, use_seed


def hands_go_out_after_the_tables(bot) -> None:
    """Every flush shows the hands only once the game's table jobs ran out: as when the DMs
    wait for the REST budget while the tables' calls go through."""
    renderer = bot.renderer
    show_hands = renderer._show_hands

    async def late(work, view, locale) -> None:
        await renderer.tables.wait_idle(view.game_id)
        await show_hands(work, view, locale)

    renderer._show_hands = late


def the_other_plays_on_after_the_starter_quits(game: Game) -> bool:
    """Two players: the starter quits and the other, alone, still has a card to play (not
    forced out at once): their time-out is what ends round 1 (a deal for `find_seed`)."""
    game.apply(game.current_seat, QUIT)
    return game.round_number == 1


@pytest.mark.parametrize("bot_clock", [FakeClock()])
async def test_a_time_out_that_ends_a_round_is_told_above_the_next_rounds_table(
    fake_discord, lamabot, bot_clock
):
    fake, bot, clock = fake_discord, lamabot, bot_clock
    alice, bob, channel = fake.user("alice"), fake.user("bob"), fake.channel("lama")
    use_seed(bot, find_seed("classic", 2, the_other_plays_on_after_the_starter_quits))
    game_id = await open_game(fake, bot, channel, alice, bob, variant="classic")
    quitter, _ = on_turn(fake, bot, game_id)
    assert (await fake.slash(quitter, channel, "quit")).ephemeral
    await settle(bot, game_id)
    late, _ = on_turn(fake, bot, game_id)
    assert late is not quitter and bot.service.view(game_id).round_number == 1
    hands_go_out_after_the_tables(bot)
    clock.advance(bot.service.view(game_id).options.turn_timeout)
    await bot.service.fire_due_timers()
    await bot.renderer.flush_all()

    assert bot.service.view(game_id).round_number == 2
    public = fake.public_messages(channel)
    told = [i for i, m in enumerate(public) if "ran out of time" in m.text]
    (next_table,) = [public.index(m) for m in tables_of_round(fake, channel, game_id, 2)]
    assert len(told) == 1 and told[0] < next_table, [m.text[:60] for m in public]
