"""Durable moves per second on one PostgreSQL: one bot process, then two (issues 16 and 33).

    python -m benchmarks.processes [--games 100] [--window 15] [--rounds 1] [--paced]

The same world and the same players for both: 100 games of three humans over two servers, one
per shard (SHARD_COUNT=2), on one local PostgreSQL cluster that commits like a production
server (fsync on). "one": a single bot.py runs both shards; "two": one bot.py per shard, each
with half the REST budget, as production splits a bot. The players are the yardstick's
(benchmarks.yardstick.People): a closed loop over slash commands, every game's next
interaction sent as soon as its last one was answered (the card autocomplete, then /play,
/draw or /quit; a finished game is followed by a new lobby), so the figure is what the bot
carries, not what the players offer. A move counts once it is in the database (its row in
`moves`); the processes' CPU and the PostgreSQL server's (every process of the cluster) are
measured over the same window, to show which one is the limit. Each mode runs in a fresh
database of the same cluster, one right after the other (`--rounds` repeats the pair). Figures:
benchmarks/processes.json; docs/performance.md explains them. Issue 33's target: ≥ 300
durable moves/s with two processes.

`--paced` runs the human-paced load of issue 16 instead (benchmarks/processes_paced.py:
players who think 1-3 s and mostly press DM buttons, with AI seats), two processes only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

import uvloop

from benchmarks import processes_paced
from benchmarks.bot_report import percentile
from benchmarks.botload import REPO, cpu_seconds, seed_settings, stop_bot, wait_for_log
from benchmarks.processes_paced import build_world, count_moves
from benchmarks.yardstick import LAMABOT, Pace, People, driver_gc_off
from loopback.hook import point_discord_at, restore_real_discord
from loopback.postgres_cluster import DURABLE, PostgresCluster, start_cluster
from loopback.running import BOT_TOKEN, run_bot_process

OUT = Path(__file__).resolve().parent / "processes.json"
SHARDS = 2
HUMANS = 3
MODES = {"one": ("0,1",), "two": ("0", "1")}  # SHARD_IDS of each process
TARGET_TWO = 300.0  # durable moves/s with two processes (issue 33)
# Discord's refusal of an emoji a peer uploaded first: two processes starting together both
# upload the card emojis, the loser lists and uses the peer's (issue 33's start-up race)
EMOJI_RACE = "Application emoji names must be unique"


def cluster_cpu(cluster: PostgresCluster) -> float:
    """CPU seconds of the PostgreSQL server so far: its postmaster and every child (the
    backends serving the bots, the WAL writer, the checkpointer...)."""
    postmaster = int((cluster.data_dir / "postmaster.pid").read_text().split()[0])
    children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
    total = 0.0
    for pid in (postmaster, *map(int, children)):
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):  # gone meanwhile
            total += cpu_seconds(pid)
    return total


async def start_bots(stack: AsyncExitStack, fake, mode: str, url: str, rest: int) -> list:
    """The mode's bot.py processes, one per shard group, each logged in."""
    procs = []
    for shard_ids in MODES[mode]:
        env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_URL": url,
               "SHARD_COUNT": str(SHARDS), "SHARD_IDS": shard_ids,
               "REST_CALLS_PER_SECOND": str(rest)}
        procs.append(await stack.enter_async_context(run_bot_process(
            fake, [sys.executable, "bot.py"], env=env, cwd=REPO, wait_connected=False,
            timeout=60)))
    for proc in procs:
        await wait_for_log(proc, "Logged in as", timeout=90)
    return procs


async def measure(mode: str, cluster: PostgresCluster, url: str, args) -> dict:
    """One mode's run: its processes started, the players playing, the window measured."""
    fake, channels, players = await build_world(args.games, HUMANS)
    fake.response_deadline = 60.0  # a late answer is measured, not refused
    await fake.start()
    point_discord_at(fake.base_url)
    try:
        for guild_id in fake.guilds:
            await seed_settings(url, guild_id, None)  # type: ignore[arg-type]
        async with AsyncExitStack() as stack:
            procs = await start_bots(stack, fake, mode, url, args.rest)
            people = People(fake, LAMABOT, Pace())
            games = [asyncio.create_task(people.game(channel, users))
                     for channel, users in zip(channels, players, strict=True)]
            await asyncio.sleep(args.warmup)
            async with driver_gc_off(keep=False):  # the fake keeps every request it served
                moves_before, server_before = await count_moves(url), cluster_cpu(cluster)
                cpu_before = [cpu_seconds(p.process.pid) for p in procs]
                driver_before, start = time.process_time(), time.perf_counter()
                await asyncio.sleep(args.window)
                end, driver = time.perf_counter(), time.process_time() - driver_before
                moves, server = await count_moves(url) - moves_before, cluster_cpu(cluster)
            cpu = [cpu_seconds(p.process.pid) - b for p, b in zip(procs, cpu_before, strict=True)]
            people.stop.set()
            for task in games:
                task.cancel()
            await asyncio.wait(games, timeout=30)
            for proc in procs:
                await stop_bot(proc)
            errors = [str(e) for e in fake.take_errors()]
            errors += [f"process {n} logged a traceback" for n, p in enumerate(procs)
                       if "Traceback" in p.output()]
    finally:
        await fake.stop()
        restore_real_discord()
    figures = _figures(mode, people.samples, (start, end), moves, cpu,
                       server - server_before, driver, [e for e in errors if EMOJI_RACE not in e])
    figures["emoji_uploads_lost_to_a_peer"] = sum(EMOJI_RACE in e for e in errors)
    return figures


def _figures(mode: str, samples: list, window: tuple[float, float], moves: int,
             cpu: list[float], server: float, driver: float, errors: list[str]) -> dict:
    start, end = window
    seconds = end - start
    inside = [s for s in samples if start <= s.due <= end]
    per_move = 1000 / max(1, moves)  # CPU seconds over moves, in ms
    return {
        "mode": mode, "processes": len(MODES[mode]), "seconds": round(seconds, 1),
        "durable_moves_per_s": round(moves / seconds, 1),
        "interactions_per_s": round(len(inside) / seconds, 1),
        "latency_ms": _ms([s.done - s.due for s in inside]),
        "cpu_share": {f"process {n} (shards {ids})": round(c / seconds, 3)
                      for n, (ids, c) in enumerate(zip(MODES[mode], cpu, strict=True))},
        "postgres_cpu_share": round(server / seconds, 3),
        "driver_cpu_share": round(driver / seconds, 3),
        # what each durable move cost, lobbies and autocomplete included: on two shared
        # cores the throughput is about what is left of them over this
        "cpu_ms_per_move": {"bots": round(sum(cpu) * per_move, 2),
                            "postgres": round(server * per_move, 2),
                            "driver": round(driver * per_move, 2)},
        "error_count": len(errors), "errors": errors[:20],
    }


def _ms(values: list[float]) -> dict:
    if not values:
        return {}
    return {"p50": round(statistics.median(values) * 1000, 1),
            "p99": round(percentile(values, 99) * 1000, 1),
            "max": round(max(values) * 1000, 1)}


def compare(args) -> dict:
    """Each round: one process, then two, each in a fresh database of one durable cluster."""
    cluster = start_cluster(DURABLE)
    rounds: list[dict] = []
    try:
        for n in range(args.rounds):
            done: dict = {}
            for mode in MODES:
                print(f"  processes: {mode}, round {n + 1} ...", flush=True)
                url = asyncio.run(cluster.create_database(f"processes_{mode}_{n}"))
                # the driver (the loopback Discord and the players) on uvloop, as the bots:
                # it is one of the four processes sharing the machine's cores
                done[mode] = uvloop.run(measure(mode, cluster, url, args))
                print("   ", json.dumps(done[mode]), flush=True)
            rounds.append(done)
    finally:
        cluster.stop()
    two = statistics.median(r["two"]["durable_moves_per_s"] for r in rounds)
    one = statistics.median(r["one"]["durable_moves_per_s"] for r in rounds)
    return {
        "games": args.games, "humans_per_game": HUMANS, "window_s": args.window,
        "rest_calls_per_second": args.rest,
        **rounds[-1],
        "durable_moves_per_s": {"one process": one, "two processes": two,
                                "two / one": round(two / one, 2) if one else None},
        "target_two_processes": TARGET_TWO, "target_met": two >= TARGET_TWO,
        "rounds": rounds if len(rounds) > 1 else None,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--window", type=float, default=15.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=1, help="one, then two processes, "
                        "this many times; the figures are the rounds' medians")
    parser.add_argument("--rest", type=int, default=30,
                        help="REST_CALLS_PER_SECOND of the bot, split between the processes")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--paced", action="store_true", help="issue 16's human-paced load "
                        "on two processes instead (benchmarks/processes_paced.py)")
    args, rest = parser.parse_known_args(argv)
    if args.paced:
        return processes_paced.main(rest)
    report = compare(args)
    report["command"] = "python -m benchmarks.processes " + " ".join(
        sys.argv[1:] if argv is None else argv)
    print(json.dumps(report["durable_moves_per_s"], indent=2))
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
