"""A crash loses nothing: the real bot.py killed with SIGKILL mid-round and started again."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from loopback.running import BOT_TOKEN, run_bot_process
from store import Store
from tests.support.crash import enabled_buttons, newest_hand, wait_disconnected

REPO = Path(__file__).resolve().parents[2]






async def player_on_turn(fake, users, timeout=10.0):
    """The user whose newest hand DM has live buttons: only the player on turn has one."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        ready = [u for u in users if enabled_buttons(newest_hand(fake, u))]
        if len(ready) == 1:
            return ready[0]
        await asyncio.sleep(0.02)
    raise AssertionError("no single player has a live hand")


async def press_something(fake, user):
    """Draw if possible, else play the first playable card, else quit."""
    message = newest_hand(fake, user)
    buttons = enabled_buttons(message)
    draw = [b for b in buttons if b.custom_id.endswith(":draw")]
    cards = [b for b in buttons if not b.custom_id.endswith((":draw", ":quit"))]
    choice = (draw or cards or buttons)[0]
    result = await fake.click(user, message, choice.custom_id)
    assert result.refused is None
    return result


async def stored(db_path, game_id=1):
    store = await Store.open(db_path)
    try:
        return await store.games.get_game(game_id), await store.games.list_moves(game_id)
    finally:
        await store.close()




async def test_a_killed_bot_continues_from_the_last_move_and_old_buttons_work(
    fake_discord, tmp_path
):
    fake = fake_discord
    db_path = tmp_path / "lama.sqlite3"
    env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_PATH": str(db_path), "RENDER_DELAY": "0"}
    args = [sys.executable, "bot.py"]
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = fake.channel("lama")

    async with run_bot_process(fake, args, env=env, cwd=REPO) as bot:
        await fake.slash(alice, channel, "lama new")
        await fake.slash(bob, channel, "lama join")
        await fake.slash(alice, channel, "lama start")
        for _ in range(4):
            await press_something(fake, await player_on_turn(fake, [alice, bob]))
        on_turn = await player_on_turn(fake, [alice, bob])
        bot.kill()
    await wait_disconnected(fake)
    before, moves_before = await stored(db_path)
    assert len(moves_before) == 4

    async with run_bot_process(fake, args, env=env, cwd=REPO):
        await press_something(fake, on_turn)  # a button sent before the crash
        await player_on_turn(fake, [alice, bob])
    after, moves_after = await stored(db_path)
    assert moves_after[:4] == moves_before
    assert len(moves_after) == 5
    assert after.last_seq == before.last_seq + 1
