"""The web pages on a server with 100,000 finished games: what a page costs the bot's process.

    python -m benchmarks.web [--games N] [--runs R]

The same data as benchmarks.leaderboard (its generator: ~300 players, three variants, a year of
games), plus one game really played to the end (four seats, target 40) so its replay has a
full move log. The site runs as in the bot (web.WebServer on the event loop) and is read over
loopback HTTP; the time is the server's own, from the Server-Timing header every page carries
(the store's reads, hosting, rendering the template), so the client's share is left out.
Prints median and p99 per page and writes benchmarks/web.json.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from benchmarks.leaderboard import GUILD, NOW, make_games
from hosting import FakeClock, GameOptions, GameService, Status
from hosting.site import SiteService
from hosting.stats import Period, StatsService
from lama.actions import Draw, Play
from lama.ai import get_policy
from store import RESULT_SORTS, LeaderboardSort, Store
from store.bulk import insert_finished_games
from web import GuildProfile, Paths, SiteDeps, WebServer

OUT = Path(__file__).with_name("web.json")
VARIANTS = (None, "classic", "party", "komarami")


async def play_one_game(store: Store, clock: FakeClock) -> int:
    """A whole game through GameService: one human (moved by the normal AI) and three AIs."""
    service = GameService(store, clock, seed_source=lambda: 4242)
    options = GameOptions(variant="classic", target=40, turn_timeout=3600, ai_delay=0,
                          ai_level="normal")
    host = 1_000_000
    game_id = (await service.open_lobby(GUILD, GUILD + 1, host, f"Player {host}", options,
                                        ai_seats=3)).view.game_id
    await service.start(game_id, host)
    policy, rng = get_policy("normal"), random.Random(1)
    while service.view(game_id).status is not Status.FINISHED:
        clock.advance(5)
        if await service.fire_due_timers():
            continue
        action = policy.choose(service.observation(game_id, host), rng)
        if isinstance(action, Play):
            await service.play(game_id, host, action.card)
        elif isinstance(action, Draw):
            await service.draw(game_id, host)
        else:
            await service.quit_round(game_id, host)
    return game_id


def leaderboard_paths(paths: Paths) -> list[str]:
    """Every board of the site (the web ranks by results: no sort:rating) on pages 1 and 4."""
    return [paths.leaderboard(sort, variant, period, page)
            for sort, variant, period, page in itertools.product(
                RESULT_SORTS, VARIANTS, Period, (0, 3))]


async def server_ms(http: aiohttp.ClientSession, path: str) -> float:
    async with http.get(path) as response:
        await response.read()
        assert response.status == 200, (path, response.status)
        return float(response.headers["Server-Timing"].split("dur=")[1])


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {"requests": len(times), "median_ms": round(statistics.median(times), 2),
            "p99_ms": round(p99, 2), "max_ms": round(ordered[-1], 2)}


async def measure(base: str, pages: dict[str, list[str]], runs: int) -> dict[str, dict]:
    results: dict[str, dict] = {}
    async with aiohttp.ClientSession(base) as http:
        for name, paths in pages.items():
            await server_ms(http, paths[0])  # warm: templates compiled, card art drawn
            times = [await server_ms(http, path) for _ in range(runs) for path in paths]
            results[name] = summary(times)
    return results


async def run(games: int, runs: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        try:
            start = time.perf_counter()
            await insert_finished_games(store.db, make_games(games, random.Random(5)))
            clock = FakeClock(NOW)
            replay_id = await play_one_game(store, clock)
            load_s = time.perf_counter() - start
            stats, site = StatsService(store, clock), SiteService(store, clock)
            film = await site.film(GUILD, replay_id)
            paths = Paths((await site.access(GUILD)).secret)

            async def profile(guild_id: int) -> GuildProfile:
                return GuildProfile("Benchmark", "en")

            server = WebServer(SiteDeps(stats, site, profile), host="127.0.0.1", port=0)
            await server.start()
            try:
                board = await stats.leaderboard(GUILD, LeaderboardSort.GAMES)
                pages = {
                    "leaderboard": leaderboard_paths(paths),
                    "replay": [paths.replay(replay_id, s) for s in range(len(film.frames))],
                    "player": [paths.player(row.user_id) for row in board.rows],
                    "games": [paths.games(page) for page in (0, 10, 100)],
                }
                results = await measure(f"http://127.0.0.1:{server.port}", pages, runs)
            finally:
                await server.stop()
        finally:
            await store.close()
    return {"games": games, "runs": runs, "load_s": round(load_s, 1),
            "replay_steps": len(film.frames), "results": results}


def print_table(report: dict) -> None:
    print(f"{report['games']:,} finished games in one server (loaded in {report['load_s']} s); "
          f"the replay has {report['replay_steps']} steps; server time from Server-Timing, ms")
    print(f"{'page':<14}{'requests':>9}{'median':>9}{'p99':>9}{'max':>9}")
    for name, r in report["results"].items():
        print(f"{name:<14}{r['requests']:>9}{r['median_ms']:>9.1f}{r['p99_ms']:>9.1f}"
              f"{r['max_ms']:>9.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    report = asyncio.run(run(args.games, args.runs))
    print_table(report)
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
