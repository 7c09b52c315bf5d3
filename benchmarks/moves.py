"""Durable moves per second: the hosting service and the store alone, no Discord, on SQLite
and on PostgreSQL in the same run.

    python -m benchmarks.moves [--games 100] [--seconds 10] [--backend sqlite|postgresql]

Many games run at once on one event loop, as in the bot. Each "human" makes a legal move the
instant it is their turn; every move goes through `GameService.human_move`: the game's lock,
the engine, and one store transaction with the state and the move log. SQLite: one WAL file
(synchronous=NORMAL, as the bot runs it). PostgreSQL: a throwaway local cluster started for the
run with production durability (fsync on, synchronous_commit on: every commit flushed to disk
before it returns), reached through a unix socket and the store's asyncpg pool. What the bot
adds on top (Discord I/O, pictures) is measured by `benchmarks.bot`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from hosting import GameOptions, GameService, Status, SystemClock
from loopback.postgres_cluster import DURABLE, PostgresCluster, start_cluster
from store import Store
from store.db import Location

GUILD = 1
OUT = Path(__file__).with_name("moves.json")


async def open_games(service: GameService, games: int) -> list[int]:
    ids = []
    for n in range(games):
        host, guest = 10_000 + 2 * n, 10_001 + 2 * n
        options = GameOptions(turn_timeout=3600, target=200)  # long games: few restarts
        update = await service.open_lobby(GUILD, n + 1, host, "host", options)
        game_id = update.view.game_id
        await service.join(game_id, guest, "guest")
        await service.start(game_id, host)
        ids.append(game_id)
    return ids


async def play(service: GameService, game_id: int, rng: random.Random, stop: float) -> int:
    moves = 0
    while time.perf_counter() < stop:
        view = service.view(game_id)
        if view.status is not Status.RUNNING:
            break  # finished inside the window (rare at target 200): this seat stops
        user = view.seats[view.current_seat].user_id
        obs = service.observation(game_id, user)
        if obs.legal_plays and rng.random() < 0.8:
            await service.play(game_id, user, rng.choice(obs.legal_plays))
        elif obs.can_draw:
            await service.draw(game_id, user)
        else:
            await service.quit_round(game_id, user)
        moves += 1
    return moves


METHODS = {
    "sqlite": "GameService.human_move on one event loop; one SQLite WAL commit per move "
              "(synchronous=NORMAL)",
    "postgresql": "GameService.human_move on one event loop; one PostgreSQL commit per move "
                  "(fsync=on, synchronous_commit=on; local cluster, unix socket, asyncpg pool "
                  "of 10)",
}


async def measure(location: Location, games: int, seconds: float) -> dict:
    store = await Store.open(location)
    service = GameService(store, SystemClock())
    ids = await open_games(service, games)
    start = time.perf_counter()
    stop = start + seconds
    counts = await asyncio.gather(
        *(play(service, game_id, random.Random(game_id), stop) for game_id in ids)
    )
    elapsed = time.perf_counter() - start
    stored = sum([len(await store.games.list_moves(game_id)) for game_id in ids])
    await store.close()
    assert stored == sum(counts), "every counted move is in the store"
    return {
        "games": games,
        "seconds": round(elapsed, 2),
        "moves": sum(counts),
        "durable_moves_per_s": round(sum(counts) / elapsed, 1),
    }


async def on_sqlite(games: int, seconds: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        return await measure(Path(tmp) / "lama.sqlite3", games, seconds)


async def on_postgresql(cluster: PostgresCluster, games: int, seconds: float) -> dict:
    return await measure(await cluster.create_database("bench"), games, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--backend", choices=sorted(METHODS), action="append",
                        help="measure only this one (default: both)")
    args = parser.parse_args(argv)
    results = {}
    for backend in args.backend or ["sqlite", "postgresql"]:
        if backend == "sqlite":
            result = asyncio.run(on_sqlite(args.games, args.seconds))
        else:
            cluster = start_cluster(DURABLE)
            try:
                result = asyncio.run(on_postgresql(cluster, args.games, args.seconds))
            finally:
                cluster.stop()
        results[backend] = {**result, "method": METHODS[backend]}
        print(f"{backend}: {result['durable_moves_per_s']} durable moves/s "
              f"({result['moves']} moves, {result['games']} games, {result['seconds']} s)",
              flush=True)
    if not args.backend:  # the figures docs/performance.md quotes: both, from one run
        OUT.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
