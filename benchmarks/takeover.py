"""How soon a dead process's games go on: `python -m benchmarks.takeover` (issue 16 point 3).

Two GameServices on one local PostgreSQL cluster (commits durable: fsync on) stand for two bot
processes. The first opens N games of a human and an AI and has the human move, so each game's
next timer is the AI's move, stored due 1.5 s later; then that process dies (its timers never
run, its connections close). The second, which never held these games, runs its sweeper and
its timers on the system clock, as a bot process of a split bot does. Measured per game: how
late past its stored due time the AI's move is committed there (the grace lets the game's own
process fire it first, `ADOPT_GRACE_S`; then a sweep finds it), and how long until every game
has moved. Before issue 16's claims the sweep took a game up only once a whole turn time
(10 s to an hour) had passed since its last commit. Writes benchmarks/takeover.json.

Options: --games N (default 200).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

from benchmarks.bot_report import percentile
from hosting import GameOptions, GameService, SystemClock
from hosting.loader import ADOPT_GRACE_S
from hosting.sweeper import SWEEP_S
from lama import DRAW
from loopback.postgres_cluster import DURABLE, start_cluster
from store import Store

OUT = Path(__file__).resolve().parent / "takeover.json"
GUILD, AI_DELAY = 1, 1.5


async def games_with_the_ai_due(url: str, games: int) -> dict[int, float]:
    """The dying process's games, each with the AI's move due: game id -> due time (s)."""
    store = await Store.open(url)
    service = GameService(store, SystemClock())
    due: dict[int, float] = {}
    options = GameOptions(turn_timeout=3600, ai_delay=AI_DELAY)
    for n in range(games):
        opened = await service.open_lobby(GUILD, n + 1, 10_000 + n, "host", options, 1)
        game_id = opened.view.game_id
        await service.start(game_id, 10_000 + n)
        view = service.view(game_id)
        if view.seats[view.current_seat].user_id is not None:
            await service.human_move(game_id, 10_000 + n, DRAW)
        hosted = service.registry.get(game_id)
        if hosted.deadline is not None and hosted.deadline.kind == "ai":
            due[game_id] = hosted.deadline.due_at
    await store.close()  # the process dies: nothing of it fires these timers
    return due


async def take_over(url: str, due: dict[int, float]) -> dict[int, float]:
    """The survivor's sweeper and timers: game id -> when its AI's move was committed."""
    store = await Store.open(url)
    service = GameService(store, SystemClock())
    moved: dict[int, float] = {}
    everything = asyncio.Event()

    async def heard(update) -> None:
        game_id = update.view.game_id
        if game_id in due and update.actor_seat is not None and game_id not in moved:
            moved[game_id] = time.time()
            if len(moved) == len(due):
                everything.set()

    service.add_listener(heard)
    tasks = [asyncio.create_task(service.run_timers()), asyncio.create_task(service.run_sweeper())]
    try:
        await asyncio.wait_for(everything.wait(), timeout=120)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await store.close()
    return moved


async def measure(games: int) -> dict:
    cluster = start_cluster(DURABLE)
    try:
        url = await cluster.create_database("takeover")
        due = await games_with_the_ai_due(url, games)
        moved = await take_over(url, due)
    finally:
        cluster.stop()
    late = sorted(moved[g] - due[g] for g in due)
    return {
        "games": len(due),
        "ai_delay_s": AI_DELAY,
        "grace_s": ADOPT_GRACE_S,
        "sweep_at_least_every_s": SWEEP_S,
        "late_past_due_s": {"min": round(late[0], 2), "p50": round(statistics.median(late), 2),
                            "p99": round(percentile(late, 99), 2), "max": round(late[-1], 2)},
        "all_moved_after_last_due_s": round(max(moved.values()) - max(due.values()), 2),
        "method": "two GameServices on one PostgreSQL (fsync on); the first dies with every "
                  "game's AI move due, the second runs its sweeper and timers",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args(argv)
    result = asyncio.run(measure(args.games))
    late = result["late_past_due_s"]
    print(f"takeover of {result['games']} games with the AI due: moved {late['p50']} s past "
          f"due (p50), {late['max']} s (max); grace {ADOPT_GRACE_S} s, sweep <= {SWEEP_S} s")
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
