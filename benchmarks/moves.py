"""Durable moves per second: the hosting service and SQLite alone, no Discord.

    python -m benchmarks.moves [--games 100] [--seconds 10]

Many games run at once on one event loop, as in the bot. Each "human" makes a legal move the
instant it is their turn; every move goes through `GameService.human_move`: the game's lock,
the engine, and one SQLite transaction (WAL) with the state and the move log. What the bot
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
from store import Store

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


async def measure(games: int, seconds: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "lama.sqlite3")
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
        "method": "GameService.human_move on one event loop; one SQLite WAL commit per move",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    result = asyncio.run(measure(args.games, args.seconds))
    print(json.dumps(result, indent=2))
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
