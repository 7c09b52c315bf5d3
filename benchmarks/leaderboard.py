"""Leaderboards and /lama stats on a server with 100,000 finished games.

    python -m benchmarks.leaderboard [--games N] [--runs R] [--analyze]

Fills a fresh SQLite file (temporary folder) with N finished 4-seat games in one server: about
300 players, a few very active and many occasional, one game in five with an AI seat, the three
variants mixed, spread over the year before "now". Then times what the commands cost, through
the same StatsService the cogs call: every leaderboard sort × variant × period (a page, the
page count and the caller's own rank), player statistics and head-to-head. Prints median and
max of R runs and writes benchmarks/leaderboard.json. The target: well inside Discord's 3 s.
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

from hosting import FakeClock
from hosting.board_cache import BoardCache
from hosting.stats import Period, StatsService
from store import RESULT_SORTS, LeaderboardSort, Store
from store.bulk import BulkGame, BulkSeat, insert_finished_games

GUILD = 424242
NOW = 1_790_000_000  # 2026-09-21, a Monday: "this week" is short, "this month" three weeks
YEAR = 365 * 86_400
PLAYERS = 300
VARIANTS = (("classic", 0.6), ("party", 0.25), ("komarami", 0.15))
OUT = Path(__file__).with_name("leaderboard.json")


def make_games(count: int, rng: random.Random):
    """Realistic enough: Zipf-like activity, shared wins on ties, AI seats now and then."""
    users = [1_000_000 + i for i in range(PLAYERS)]
    weights = list(itertools.accumulate(1 / (rank + 1) ** 0.8 for rank in range(PLAYERS)))
    names, shares = zip(*VARIANTS, strict=True)
    for n in range(count):
        humans = 3 if rng.random() < 0.2 else 4
        table = []
        while len(table) < humans:
            user = rng.choices(users, cum_weights=weights)[0]
            if user not in table:
                table.append(user)
        table += [None] * (4 - humans)
        scores = [rng.randint(0, 45) + (rng.random() < 0.5) * 10 for _ in table]
        best = min(scores)
        seats = [
            BulkSeat(
                user_id=user,
                display_name=f"AI {i + 1}" if user is None else f"Player {user}",
                final_score=score,
                place=1 + sum(s < score for s in scores),
                won=score == best,
                tokens_collected=score + rng.randint(0, 12),
                clean_rounds=rng.randint(0, 3),
            )
            for i, (user, score) in enumerate(zip(table, scores, strict=True))
        ]
        yield BulkGame(
            guild_id=GUILD, channel_id=GUILD + 1 + n % 5,
            variant=rng.choices(names, shares)[0], target=40, rounds=rng.randint(3, 9),
            finished_at=NOW - rng.randint(0, YEAR), seats=seats,
        )


async def timed(call, runs: int) -> dict[str, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return {"median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2)}


async def run(games: int, runs: int, analyze: bool) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        try:
            start = time.perf_counter()
            await insert_finished_games(store.db, make_games(games, random.Random(5)),
                                        analyze=analyze)
            load_s = time.perf_counter() - start
            # Every board made anew, as when nobody kept it (a game just finished in the
            # server): kept boards (issue 33) would time a dictionary look-up.
            clock = FakeClock(NOW)
            stats = StatsService(store, clock, boards=BoardCache(clock, ttl_s=0))
            board = await stats.leaderboard(GUILD, LeaderboardSort.GAMES)
            busiest = board.rows[0].user_id
            typical = (await stats.leaderboard(GUILD, LeaderboardSort.GAMES, page=15)).rows[0]
            rows = []
            for sort in RESULT_SORTS:  # sort:rating: benchmarks/ratings.py
                for variant in (None, "classic", "party", "komarami"):
                    for period in Period:
                        async def page(sort=sort, variant=variant, period=period):
                            return await stats.leaderboard(GUILD, sort, variant=variant,
                                                           period=period, page=3,
                                                           user_id=typical.user_id)
                        result = await page()
                        rows.append({"query": "leaderboard", "sort": sort.value,
                                     "variant": variant or "all", "period": period.value,
                                     "ranked": result.total, **await timed(page, runs)})
            for label, user in (("busiest", busiest), ("typical", typical.user_id)):
                rows.append({"query": "player_stats", "player": label, **await timed(
                    lambda u=user: stats.player(GUILD, u), runs)})
                rows.append({"query": "player_stats+head_to_head", "player": label,
                             **await timed(lambda u=user: stats.player(GUILD, u,
                                                                       asked_by=busiest + 1),
                                           runs)})
            rows.append({"query": "history", **await timed(lambda: stats.history(GUILD), runs)})
            plan = await store.stats.explain_leaderboard(GUILD, LeaderboardSort.WINS)
        finally:
            await store.close()
    return {"games": games, "players": PLAYERS, "runs": runs, "analyze": analyze,
            "load_s": round(load_s, 1), "plan_all_time_wins": plan, "results": rows}


def print_table(report: dict) -> None:
    print(f"{report['games']:,} games, {report['players']} players, loaded in "
          f"{report['load_s']} s; median / max of {report['runs']} runs, milliseconds")
    print(f"{'query':<28}{'sort':<14}{'variant':<10}{'period':<7}{'ranked':>7}"
          f"{'median':>9}{'max':>9}")
    for r in report["results"]:
        what = r.get("player", "")
        print(f"{r['query']:<28}{r.get('sort', what):<14}{r.get('variant', ''):<10}"
              f"{r.get('period', ''):<7}{r.get('ranked', ''):>7}"
              f"{r['median_ms']:>9.1f}{r['max_ms']:>9.1f}")
    worst = max(r["max_ms"] for r in report["results"])
    print(f"slowest single call: {worst:.1f} ms (Discord allows 3,000 ms for the first answer)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--analyze", action="store_true", help="ANALYZE after loading")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    report = asyncio.run(run(args.games, args.runs, args.analyze))
    print_table(report)
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
