"""Databases full of unfinished games, and what restoring them costs (time and memory).

The games are made by the real `GameService` (lobby, joins, start, a few legal moves), so the
rows are exactly what the bot writes. `python -m benchmarks.botstate <db>` restores them in a
fresh process and prints the memory it took, as JSON.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import sys
import time
import tracemalloc
from pathlib import Path

from hosting import GameOptions, GameService, SystemClock
from lama import DRAW, QUIT, Play
from store import Store

HUMANS = 4  # seats per generated game, all human so every move is a plain service call


async def make_unfinished_games(db_path: Path, count: int, *, moves: int = 8, seed: int = 1):
    """`count` running games, one per channel, each `moves` moves into its first round."""
    rng = random.Random(seed)
    store = await Store.open(db_path)
    service = GameService(store, SystemClock(), seed_source=lambda: rng.getrandbits(62))
    try:
        options = GameOptions(turn_timeout=600)
        for game in range(count):
            guild_id, channel_id = 10_000 + game % 50, 1_000_000 + game
            users = [5_000_000 + game * HUMANS + i for i in range(HUMANS)]
            update = await service.open_lobby(guild_id, channel_id, users[0], "p0", options)
            game_id = update.view.game_id
            for i, user in enumerate(users[1:], 1):
                await service.join(game_id, user, f"p{i}")
            await service.start(game_id, users[0])
            for _ in range(moves):
                view = service.view(game_id)
                user = view.seats[view.current_seat].user_id
                obs = service.observation(game_id, user)
                action = Play(obs.legal_plays[0]) if obs.legal_plays else (
                    DRAW if obs.can_draw else QUIT
                )
                await service.human_move(game_id, user, action)
                if service.view(game_id).round_number != 1:
                    break
    finally:
        await store.close()


def _rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def measure_restore(db_path: Path, *, trace: bool) -> dict:
    """Restore every unfinished game into a GameService in this (fresh) process and report
    what it cost: resident memory (RSS) growth, or with `trace` the bytes tracemalloc sees
    still allocated (tracemalloc's own tables inflate RSS, hence two separate runs)."""
    store = await Store.open(db_path)
    service = GameService(store, SystemClock())
    gc.collect()
    rss_before = _rss_kb()
    if trace:
        tracemalloc.start()
    started = time.perf_counter()
    views = await service.restore()
    seconds = time.perf_counter() - started
    gc.collect()
    result = {"games": len(views), "restore_s": seconds}
    if trace:
        result["tracemalloc_bytes"] = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
    else:
        result["rss_delta_kb"] = _rss_kb() - rss_before
    await store.close()
    return result


if __name__ == "__main__":
    db, mode = Path(sys.argv[1]), sys.argv[2]
    print(json.dumps(asyncio.run(measure_restore(db, trace=mode == "trace"))))
