"""Issue 16's end to end: two real bot.py processes (SHARD_COUNT=2, SHARD_IDS=0 and 1) on one
real PostgreSQL and the loopback Discord.

The game's server lives on shard 1. Discord sends its slash commands to process 1 and every DM
button to process 0, so both processes move the same game: the game row's version decides. A
second game goes on when process 1 is SIGKILLed while an AI's move is due: process 0, which
never held it, takes it over once that timer is overdue — after the AI's delay plus a few
seconds, not a turn time — and its AI turns and a turn time-out fire there, a DM button moves
it, and process 1, started again, serves its server. Afterwards each move log has no
gap and no duplicate, and holds every move a player saw acknowledged.

A round that process 1 ended is killed with it before its render began: process 0 shows it, once,
when process 1's hold on it runs out. A render process 1 is slow to show (longer than that hold)
stays its own: process 0 takes nothing over.
"""

from __future__ import annotations

import asyncio
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from hosting.outbox import RENDER_LEASE_S, RENEW_S
from lama import RoundEnded, game_from_dict
from loopback.running import BOT_TOKEN, run_bot_process
from store import Actor, GameStatus, Store
from tests.support.crash import effect_of_quit, tables_of_round
from tests.support.e2e import names_game

# Three bot processes start, a game is played out and a 10 s turn timer must run out after a
# kill: about a minute on a quiet machine, more under load than the suite's 120 s default.
pytestmark = pytest.mark.timeout(300)

REPO = Path(__file__).resolve().parents[2]
ARGS = [sys.executable, "bot.py"]
CHANNEL_PERIOD = 0.5
REPAIRED = "whose render was lost"  # what a process logs when it shows another's lost render
TURN_2 = 20  # game 2's turn time: a dead process's AI turn goes on long before it passes


def bot_env(url: str, shard: int, render_delay: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_URL": url, "SHARD_COUNT": "2",
            "SHARD_IDS": str(shard), "RENDER_DELAY": render_delay,
            "DISCORD_CHANNEL_WINDOW": str(CHANNEL_PERIOD)}


def start(fake, url: str, shard: int, render_delay: str = "0"):
    return run_bot_process(fake, ARGS, env=bot_env(url, shard, render_delay), cwd=REPO,
                           shard_id=shard, timeout=60)


async def the_game(store: Store, channel_id: int):
    """The newest game of a channel, as stored."""
    games = [g for g in await store.games.unfinished_games() if g.channel_id == channel_id]
    assert games, "no game in that channel"
    return max(games, key=lambda g: g.id)


def user_on_turn(record) -> int | None:
    game = game_from_dict(record.state)
    seat = game.current_seat
    return None if seat is None else record.seats[seat].user_id


async def wait_for(predicate, timeout: float = 30.0, every: float = 0.1):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError("not reached in time")
        await asyncio.sleep(every)


async def press_on_dm_hand(fake, user, game_id: int, wait: float = 15.0) -> bool | None:
    """Move with the newest hand DM's buttons (arrives at shard 0): a card, else draw, else
    quit and confirm. True if a move was acknowledged (the hand was updated in place); None
    if no live hand DM came within `wait` seconds."""
    async def live_hand():
        hands = [m for m in fake.dms(user)
                 if any(names_game(b.custom_id, "h", game_id) and not b.disabled
                        for b in m.buttons)]
        return hands[-1] if hands else None

    try:
        hand = await wait_for(live_hand, timeout=wait, every=0.05)  # it may be on its way
    except AssertionError:
        return None
    live = [b.custom_id for b in hand.buttons if b.custom_id and not b.disabled]
    cards = [c for c in live if not c.endswith((":draw", ":quit"))]
    draws = [c for c in live if c.endswith(":draw")]
    if cards or draws:
        result = await fake.click(user, hand, (cards or draws)[0])
        return result.response_type == 7 and not result.ephemeral
    asked = await fake.click(user, hand, next(c for c in live if c.endswith(":quit")))
    assert asked.response_type == 7, asked
    confirm = next(b.custom_id for b in hand.buttons if b.custom_id.endswith(":quitok"))
    result = await fake.click(user, hand, confirm)
    return result.response_type == 7 and not result.ephemeral


async def quit_by_slash(fake, user, channel) -> bool:
    """`/quit` in the server's channel (arrives at shard 1's process). True if it moved: the
    answer is the mover's hand (the game's last move leaves it without buttons)."""
    result = await fake.slash(user, channel, "quit")
    return result.ephemeral and result.refused is None and "Your hand" in result.text


async def move_log(store: Store, game_id: int) -> list[int]:
    return [m.seq for m in await store.games.list_moves(game_id)]


async def test_two_processes_share_one_game_and_survive_a_kill(fake_discord, postgres_url):
    fake = fake_discord
    fake.shard_count = 2
    fake.ratelimits.channel_period = CHANNEL_PERIOD
    far = await fake.add_guild("Far Club", channels=("lama",), shard=(1, 2))
    channel = far.channel("lama")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    store = await Store.open(postgres_url)
    try:
        async with AsyncExitStack() as processes:
            await processes.enter_async_context(start(fake, postgres_url, 0))
            one = await processes.enter_async_context(start(fake, postgres_url, 1))
            assert fake.gateway.route(far.id).shard == (1, 2)
            assert fake.gateway.route(None).shard == (0, 2)

            # ---- game 1: DM buttons (process 0) and slash commands (process 1) to its end
            await fake.slash(alice, channel, "lama new", target=10)
            await fake.slash(bob, channel, "lama join")
            await fake.slash(alice, channel, "lama start")
            game = await the_game(store, channel.id)
            acknowledged, by_dm, by_slash = 0, 0, 0
            for turn in range(300):
                record = await store.games.get_game(game.id)
                if record.status is not GameStatus.RUNNING:
                    break
                user = fake.users_by_id[user_on_turn(record)]
                before = record.last_seq
                moved = None
                if turn % 2 == 0:
                    # A player who moved by slash command in the process that pinged them
                    # gets a turn ping with a link to the table, not a hand DM: then /quit.
                    moved = await press_on_dm_hand(fake, user, game.id, wait=5)
                    by_dm += bool(moved)
                if moved is None:
                    moved = await quit_by_slash(fake, user, channel)
                    by_slash += moved
                after = (await store.games.get_game(game.id)).last_seq
                assert after == before + (1 if moved else 0), (turn, before, after)
                acknowledged += moved
            record = await store.games.get_game(game.id)
            assert record.status is GameStatus.FINISHED
            assert by_dm and by_slash  # both processes moved the game
            assert await move_log(store, game.id) == list(range(1, acknowledged + 1))

            # ---- game 2: carol and an AI; process 1 dies mid-game while the AI is due, and
            # process 0 goes on. (Carol: alice and bob played game 1 by slash command too, so
            # the bot pings them with a link to the table instead of a DM hand; carol plays
            # from her DMs once process 0 hosts the game.)
            opened = await fake.slash(carol, channel, "lama new", target=200,
                                      turn_timeout=TURN_2, ai_seats=1)  # on after a kill
            assert not opened.ephemeral, opened.text
            started = await fake.slash(carol, channel, "lama start")
            assert started.ephemeral and started.refused is None, started.text
            second = await the_game(store, channel.id)

            async def carols_turn():
                record = await store.games.get_game(second.id)
                return user_on_turn(record) == carol.id and record

            async def an_ai_on_turn():  # its move is due in process 1, which set its timer
                record = await store.games.get_game(second.id)
                if user_on_turn(record) == carol.id:  # not her DMs: process 0 would hold it
                    assert await quit_by_slash(fake, carol, channel)
                    return None
                return record.timer.kind == "ai" and record

            at_kill = await wait_for(an_ai_on_turn, every=0.02)
            one.kill()  # process 0 has never held game 2: its sweeper must take it over
            killed_at = at_kill.last_seq

            async def moved_since_the_kill():
                return (await store.games.list_moves(second.id))[killed_at:]

            taken_over = (await wait_for(moved_since_the_kill, timeout=60))[0]
            assert taken_over.actor is Actor.AI and taken_over.seq == killed_at + 1
            # the AI's delay plus the grace and a sweep, not a turn time (whole seconds stored)
            assert taken_over.created_at - at_kill.updated_at < TURN_2

            async def ai_and_time_out_since_the_kill():
                moves = (await store.games.list_moves(second.id))[killed_at:]
                actors = {m.actor for m in moves}
                return Actor.AI in actors and Actor.TIMER in actors

            await wait_for(ai_and_time_out_since_the_kill, timeout=60)
            await wait_for(carols_turn, timeout=60)  # the AI may finish the round alone first
            before = (await store.games.get_game(second.id)).last_seq
            assert await press_on_dm_hand(fake, carol, second.id)  # acknowledged by process 0
            pressed = (await store.games.list_moves(second.id))[before]
            assert pressed.seq == before + 1 and pressed.actor is Actor.HUMAN

            # ---- process 1 again: it serves its server
            await processes.enter_async_context(start(fake, postgres_url, 1))
            table = await fake.slash(bob, channel, "lama rules")
            assert table.refused is None and table.ephemeral
        log = await move_log(store, second.id)
        assert log == list(range(1, len(log) + 1))
        assert (await store.games.get_game(second.id)).last_seq == len(log)
    finally:
        await store.close()


async def test_a_round_a_killed_process_ended_is_summed_up_by_the_other_once(
        fake_discord, postgres_url):
    fake = fake_discord
    fake.shard_count = 2
    fake.ratelimits.channel_period = CHANNEL_PERIOD
    channel = (await fake.add_guild("Far Club", channels=("lama",), shard=(1, 2))).channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    store = await Store.open(postgres_url)

    async def all_shown():
        return await store.renders.pending() == []

    async def quit_on_turn(game_id: int) -> bool:
        """The player on turn quits by /quit; True if that quit ended the round."""
        await wait_for(all_shown)  # what came before is on Discord
        record = await store.games.get_game(game_id)
        ends = RoundEnded in effect_of_quit(game_from_dict(record.state))
        assert await quit_by_slash(fake, fake.users_by_id[user_on_turn(record)], channel)
        return ends

    try:
        async with AsyncExitStack() as processes:
            zero = await processes.enter_async_context(start(fake, postgres_url, 0))
            # process 1 shows a change 2 s after committing it: the kill comes first, even when
            # this machine is slow to pass the interaction's answer on
            one = await processes.enter_async_context(start(fake, postgres_url, 1, "2"))
            await fake.slash(alice, channel, "lama new")
            await fake.slash(bob, channel, "lama join")
            await fake.slash(alice, channel, "lama start")
            game = await the_game(store, channel.id)
            # Round 1 ends with the second quit, or with the first when the player left
            # alone holds no card to play (their forced quit ends it; the second quit would
            # then be round 2's): the quit that ends it is process 1's last commit …
            for _ in range(2):
                if await quit_on_turn(game.id):
                    break
            one.kill()  # … and it dies before showing it
            assert game_from_dict((await store.games.get_game(game.id)).state).round_number == 2
            assert not await all_shown()

            await wait_for(all_shown, timeout=60)  # process 0 took it over and showed it
            await asyncio.sleep(1.0)  # a moment more for any duplicate to show up
            summaries = [m for m in fake.public_messages(channel) if "Round 1 is over" in m.text]
            assert len(summaries) == 1 and not summaries[0].buttons  # round 1's table, closed
            assert len(tables_of_round(fake, channel, game.id, 2)) == 1
            assert REPAIRED in zero.output()
    finally:
        await store.close()


async def test_a_live_process_s_slow_render_is_left_to_it(fake_discord, postgres_url):
    """Process 1 gathers what it shows for longer than the render lease (as a REST budget
    holding its calls back would delay it): it keeps renewing its hold, so process 0 never
    takes the game's deal over, and the deal is shown once, by process 1."""
    fake = fake_discord
    fake.shard_count = 2
    fake.ratelimits.channel_period = CHANNEL_PERIOD
    channel = (await fake.add_guild("Far Club", channels=("lama",), shard=(1, 2))).channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    store = await Store.open(postgres_url)
    slower_than_the_lease = str(RENDER_LEASE_S + 3 * RENEW_S)

    async def all_shown():
        return await store.renders.pending() == []

    try:
        async with AsyncExitStack() as processes:
            zero = await processes.enter_async_context(start(fake, postgres_url, 0))
            await processes.enter_async_context(
                start(fake, postgres_url, 1, slower_than_the_lease))
            await fake.slash(alice, channel, "lama new")
            await fake.slash(bob, channel, "lama join")
            await fake.slash(alice, channel, "lama start")  # committed by process 1
            game = await the_game(store, channel.id)
            assert not await all_shown()
            await wait_for(all_shown, timeout=90)
            assert len(tables_of_round(fake, channel, game.id, 1)) == 1
            assert REPAIRED not in zero.output()
    finally:
        await store.close()
