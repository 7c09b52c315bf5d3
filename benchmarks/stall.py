"""What a database stall costs the other games: another connection (a backup, a maintenance
script) holds SQLite's write lock while game A moves. Meanwhile game B moves, and the reads a
player makes run: the hand and autocomplete's legal cards (memory), `/lama history` and
`/leaderboard` (the database). Prints when each finished, in seconds after the stall began.

    python -m benchmarks.stall [--stall 4] [--runs 3]

The hosting service and SQLite alone, no Discord: what each answer waits for. (The
interaction layer defers whatever takes longer than 1.5 s: docs/slow-database.md.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from hosting import GameOptions, GameService, SystemClock
from hosting.stats import StatsService
from store import Store

GUILD = 1
OUT = Path(__file__).with_name("stall.json")
Probe = Callable[[], Awaitable[object]]


async def two_games(service: GameService) -> list[tuple[int, int]]:
    """Two started games; returns (game id, the user on turn) of each."""
    games = []
    for n in range(2):
        host, guest = 100 + 2 * n, 101 + 2 * n
        update = await service.open_lobby(GUILD, n + 1, host, "host", GameOptions(target=200))
        await service.join(update.view.game_id, guest, "guest")
        started = await service.start(update.view.game_id, host)
        view = started.view
        games.append((view.game_id, view.seats[view.current_seat].user_id))
    return games


def probes(service: GameService, stats: StatsService, games) -> dict[str, Probe]:
    (game_b, user_b) = games[1]
    return {
        "another game's move": lambda: service.draw(game_b, user_b),
        "a hand (memory)": lambda: asyncio.sleep(0, service.observation(game_b, user_b)),
        "autocomplete's cards (memory)": lambda: asyncio.sleep(
            0, service.legal_plays(game_b, user_b)),
        "/lama history (a read)": lambda: stats.history(GUILD),
        "/leaderboard (a read)": lambda: stats.leaderboard(GUILD, None, user_id=user_b),
    }


async def one_run(stall: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stall.sqlite3"
        store = await Store.open(path)
        clock = SystemClock()
        service = GameService(store, clock, seed_source=lambda: 7)
        stats = StatsService(store, clock)
        games = await two_games(service)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        began = time.perf_counter()
        asyncio.get_running_loop().call_later(stall, other.execute, "ROLLBACK")
        took: dict[str, float] = {}

        async def timed(name: str, probe: Probe) -> None:
            await probe()
            took[name] = time.perf_counter() - began

        game_a, user_a = games[0]
        stalled = asyncio.create_task(timed("the stalled game's move", lambda: service.draw(
            game_a, user_a)))
        await asyncio.sleep(0.1)  # the others come while A waits for the lock
        await asyncio.gather(*(timed(n, p) for n, p in probes(service, stats, games).items()))
        await stalled
        other.close()
        await store.close()
        return took


async def measure(stall: float, runs: int) -> dict:
    results = [await one_run(stall) for _ in range(runs)]
    return {
        "stall_s": stall,
        "runs": runs,
        "median_s": {k: round(statistics.median(r[k] for r in results), 3) for k in results[0]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stall", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    result = asyncio.run(measure(args.stall, args.runs))
    for name, seconds in result["median_s"].items():
        print(f"{name:32} {seconds:6.3f} s")
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
