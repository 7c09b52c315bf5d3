"""Skill ratings: the cost of rating a finished game, /leaderboard sort:rating at 100,000 games,
and rerate speed.

    python -m benchmarks.ratings [--games N] [--runs R] [--finishes F]

1. Loads N finished games into one server with benchmarks/leaderboard.py's generator (about 300
   players, Zipf-like activity, AI seats now and then) and rates them all as the bot does at
   start-up for games stored before ratings (hosting.rerating.rate_unrated): rerate speed in
   games per second, and the start-up check for unrated games before and after.
2. Times a /leaderboard page (page 4, with the caller's own rank) through StatsService: by
   rating, and by every other sort (all time, every variant) on the same data, for comparison.
3. Finishes F more 4-seat games through GameStore.commit_move(finished=...) on that database,
   alternately with and without rating rules: the rating's share of a finishing commit (median
   and p99 of each; the difference is what rating costs per game).
Writes benchmarks/ratings.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.leaderboard import GUILD, NOW, make_games, timed
from hosting import FakeClock
from hosting.ratings import RULES
from hosting.rerating import rate_unrated
from hosting.stats import StatsService
from store import (
    RESULT_SORTS,
    Actor,
    FinishedGame,
    GameStore,
    LeaderboardSort,
    NewSeat,
    SeatResult,
    Store,
)
from store.bulk import insert_finished_games

OUT = Path(__file__).with_name("ratings.json")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def finish_one(games: GameStore, rng: random.Random, when: int) -> float:
    """A 4-seat game from lobby to its finishing commit; returns the commit's milliseconds."""
    players = rng.sample(range(1_000_000, 1_000_300), 3)
    seats = [NewSeat.human(u, f"P{u}") for u in players] + [NewSeat.ai("AI", "hard")]
    game = await games.create_lobby(
        guild_id=GUILD, channel_id=GUILD + 100 + rng.randint(0, 10**9), host_user_id=players[0],
        variant="classic", target=40, turn_timeout_s=120, ai_delay_s=1, now=when, seats=seats)
    await games.start_game(game.id, seed=1, state={}, now=when)
    scores = [rng.randint(0, 45) for _ in seats]
    results = tuple(SeatResult(i, s, 1 + sum(o < s for o in scores), s == min(scores), s, 1)
                    for i, s in enumerate(scores))
    start = time.perf_counter()
    await games.commit_move(game.id, 1, 0, {}, Actor.HUMAN, {}, when, round_number=1,
                            finished=FinishedGame(5, results))
    return (time.perf_counter() - start) * 1000


async def commit_costs(store: Store, finishes: int) -> dict:
    rated, unrated = GameStore(store.db, RULES), GameStore(store.db)
    rng, times = random.Random(9), {"rated": [], "unrated": []}
    for n in range(finishes):
        label, games = ("rated", rated) if n % 2 == 0 else ("unrated", unrated)
        times[label].append(await finish_one(games, rng, NOW + n))
    summary = {label: {"median_ms": round(statistics.median(v), 3),
                       "p99_ms": round(percentile(v, 0.99), 3)} for label, v in times.items()}
    summary["rating_share_median_ms"] = round(
        summary["rated"]["median_ms"] - summary["unrated"]["median_ms"], 3)
    return summary


async def boards(store: Store, runs: int) -> list[dict]:
    stats = StatsService(store, FakeClock(NOW))
    typical = (await stats.leaderboard(GUILD, LeaderboardSort.GAMES, page=15)).rows[0].user_id
    rows = []
    for sort in (LeaderboardSort.RATING, *RESULT_SORTS):
        async def page(sort=sort):
            return await stats.leaderboard(GUILD, sort, page=3, user_id=typical)
        ranked = (await page()).total
        rows.append({"sort": sort.value, "ranked": ranked, **await timed(page, runs)})
    return rows


async def run(games: int, runs: int, finishes: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3", rules=RULES)
        try:
            await insert_finished_games(store.db, make_games(games, random.Random(5)))
            unrated_check = await timed(store.ratings.guilds_with_unrated_games, runs)
            start = time.perf_counter()
            (rerated,) = await rate_unrated(store, clock=FakeClock(NOW))  # as at start-up
            rerate_s = time.perf_counter() - start
            rated_check = await timed(store.ratings.guilds_with_unrated_games, runs)
            board_rows = await boards(store, runs)
            plan = await store.ratings.explain_leaderboard(GUILD, 1)
            commits = await commit_costs(store, finishes)
        finally:
            await store.close()
    return {"games": games, "runs": runs, "rated_players": rerated.players,
            "rerate_s": round(rerate_s, 2), "rerate_games_per_s": round(games / rerate_s),
            "leaderboard": board_rows, "plan_rating_board": plan, "finishing_commit": commits,
            "start_up_check": {"all_unrated": unrated_check, "all_rated": rated_check}}


def print_report(report: dict) -> None:
    print(f"rerate: {report['games']:,} games in {report['rerate_s']} s = "
          f"{report['rerate_games_per_s']:,} games/s ({report['rated_players']} ratings)")
    print(f"/leaderboard page 4 with own rank, {report['games']:,} games, median / max of "
          f"{report['runs']} runs, ms")
    for row in report["leaderboard"]:
        print(f"  {row['sort']:<14}{row['ranked']:>6} ranked{row['median_ms']:>9.1f}"
              f"{row['max_ms']:>9.1f}")
    check = report["start_up_check"]
    print(f"start-up check for unrated games, median ms: {check['all_unrated']['median_ms']} "
          f"(none rated yet), {check['all_rated']['median_ms']} (all rated: the usual start)")
    c = report["finishing_commit"]
    print(f"finishing commit, ms: rated median {c['rated']['median_ms']} p99 {c['rated']['p99_ms']}"
          f" | unrated median {c['unrated']['median_ms']} p99 {c['unrated']['p99_ms']}"
          f" | rating's share (median) {c['rating_share_median_ms']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--finishes", type=int, default=400)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    report = asyncio.run(run(args.games, args.runs, args.finishes))
    print_report(report)
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
