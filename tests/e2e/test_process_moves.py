"""Issue 33 point 1 end to end: a move is judged on the game's current version, and what a
player is shown before it agrees. Two real bot.py processes (SHARD_COUNT=2, SHARD_IDS=0 and 1)
on one real PostgreSQL and the loopback Discord; the game's server lives on shard 1.

Alice and Bob (and an AI) play a whole game by slash commands, each human turn taken in turn
in a DM (answered by process 0) and in the server's channel (answered by process 1), so each
process answers from a copy the other has just moved. Before every move the player asks for
their hand (`/lama hand`) and for the cards `/play` suggests: both must be the stored game's,
and the move made from them (a suggested card, else a draw, else quitting the round) must be
accepted. Once, a player lets their turn time run out: the time-out, committed by whichever
process claims it, is one more move the other process's copy has not seen. Not one legal move
is refused.
"""

from __future__ import annotations

import asyncio
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from lama import game_from_dict
from loopback.running import BOT_TOKEN, run_bot_process
from store import Actor, GameStatus, Store

# Two bot processes start and a game of some fifty moves is played through them, with the AI's
# delay before each of its moves and one turn time run out: about a minute on a quiet machine.
pytestmark = pytest.mark.timeout(300)

REPO = Path(__file__).resolve().parents[2]
NO_CARD = "-"  # the autocomplete's value for "no card: here is why" (cogs/moves.py)
YOUR_TURN = "It's your turn."
HUMAN_MOVES = 160  # a bound on the game, far above its length
TURN_S = 20  # the turn time: far above a turn's three commands, even on a busy machine
TIMED_OUT_TURN = 5  # the human turn let run out


def start(fake, url: str, shard: int):
    env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_URL": url, "SHARD_COUNT": "2",
           "SHARD_IDS": str(shard), "DISCORD_CHANNEL_WINDOW": "0.5"}
    return run_bot_process(fake, [sys.executable, "bot.py"], env=env, cwd=REPO,
                           shard_id=shard, timeout=60)


async def human_on_turn(store: Store, game_id: int, timeout: float = 30.0):
    """The stored game once a human is on turn (AIs move by themselves), or once it is over:
    (record, user id or None)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        record = await store.games.get_game(game_id)
        if record.status is not GameStatus.RUNNING:
            return record, None
        seat = game_from_dict(record.state).current_seat
        user_id = record.seats[seat].user_id if seat is not None else None
        if user_id is not None:
            return record, user_id
        assert loop.time() < deadline, "no human's turn came"
        await asyncio.sleep(0.05)


async def let_the_time_run_out(store: Store, game_id: int, seq: int):
    """Wait for the move after `seq` (the turn's time-out), and return it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TURN_S + 15
    while loop.time() < deadline:
        moves = await store.games.list_moves(game_id)
        if len(moves) > seq:
            return moves[seq]
        await asyncio.sleep(0.2)
    raise AssertionError("the turn time never ran out")


async def test_dm_and_channel_moves_through_two_processes_are_never_refused(
        fake_discord, postgres_url):
    fake = fake_discord
    fake.shard_count = 2
    far = await fake.add_guild("Far Club", channels=("lama",), shard=(1, 2))
    channel = far.channel("lama")
    alice, bob = fake.user("alice"), fake.user("bob")
    store = await Store.open(postgres_url)
    try:
        async with AsyncExitStack() as processes:
            await processes.enter_async_context(start(fake, postgres_url, 0))
            await processes.enter_async_context(start(fake, postgres_url, 1))
            await fake.slash(alice, channel, "lama new", target=10, ai_seats=1,
                             turn_timeout=TURN_S)
            await fake.slash(bob, channel, "lama join")
            started = await fake.slash(alice, channel, "lama start")
            assert started.refused is None, started.text
            game_id = max(g.id for g in await store.games.unfinished_games())
            places = {"dm": 0, "channel": 0}
            for turn in range(HUMAN_MOVES):
                record, user_id = await human_on_turn(store, game_id)
                if user_id is None:
                    break
                if turn == TIMED_OUT_TURN:
                    timed_out = await let_the_time_run_out(store, game_id, record.last_seq)
                    assert timed_out.actor is Actor.TIMER, timed_out
                    continue
                user = fake.users_by_id[user_id]
                place, where = ("dm", None) if turn % 2 == 0 else ("channel", channel)
                game = game_from_dict(record.state)
                seat = next(s.seat for s in record.seats if s.user_id == user_id)
                stored = game.observation(seat)
                hand = await fake.slash(user, where, "lama hand")
                assert hand.refused is None and YOUR_TURN in hand.text, (turn, place, hand.text)
                choices = await fake.autocomplete(user, where, "play", focused="card")
                offered = [c["value"] for c in choices if c["value"] != NO_CARD]
                assert offered == [c.code for c in stored.legal_plays], (turn, place, choices)
                if offered:
                    moved = await fake.slash(user, where, "play", card=offered[0])
                else:
                    moved = await fake.slash(user, where, "draw" if stored.can_draw else "quit")
                assert moved.refused is None and "Your hand" in moved.text, (
                    turn, place, moved.text)
                after = await store.games.get_game(game_id)
                assert after.last_seq > record.last_seq, (turn, place, moved.text)
                places[place] += 1
            record = await store.games.get_game(game_id)
            assert record.status is GameStatus.FINISHED, places
            assert places["dm"] and places["channel"]
            assert Actor.TIMER in {m.actor for m in await store.games.list_moves(game_id)}
    finally:
        await store.close()
