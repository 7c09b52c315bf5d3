"""Two bot processes on one PostgreSQL under a human-paced load (issue 16):
`python -m benchmarks.processes --paced` (benchmarks/processes.py measures the throughput).

The end-to-end bot benchmark (benchmarks.botload's scripted players, the loopback Discord in
this process) with the bot split as production splits it: SHARD_COUNT=2, one bot.py per shard,
both on one local PostgreSQL cluster (commits durable: fsync on). Games are spread over two
servers, one per shard; their slash commands reach that server's process and every DM button
reaches shard 0's process, which applies and shows those moves whichever server they are in.
Prints interaction latency, durable moves per second (counted in the database: what these
players offer, not what the bot carries) and each process's CPU, and writes
benchmarks/processes_paced.json.

Options: --games N (default 40), --seconds S (measured window, default 30), --ramp S (the
games open their lobbies over S seconds, default 10), --rest N (REST_CALLS_PER_SECOND, default
30, split between the processes), --quick.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

import asyncpg

from benchmarks.bot_report import percentile
from benchmarks.botload import (
    REPO,
    LoadConfig,
    Players,
    Watched,
    cpu_seconds,
    seed_settings,
    stop_bot,
    wait_for_log,
)
from loopback.hook import point_discord_at, restore_real_discord
from loopback.places import FakeChannel
from loopback.postgres_cluster import DURABLE, start_cluster
from loopback.running import BOT_TOKEN, run_bot_process
from loopback.server import FakeDiscord

OUT = Path(__file__).resolve().parent / "processes_paced.json"
SHARDS = 2


async def build_world(games: int, humans: int, *, validate: bool = False
                      ) -> tuple[FakeDiscord, list, list]:
    """Two servers, one on each shard, the games' channels alternating between them."""
    fake = FakeDiscord(members=(), channels=(), validate=validate)
    fake.shard_count = SHARDS
    fake.wait_timeout = 60.0
    guilds = [await fake.add_guild(f"Shard {n}", channels=(), shard=(n, SHARDS), members=[])
              for n in range(SHARDS)]
    channels, players = [], []
    for i in range(games):
        guild = guilds[i % SHARDS]
        channel = FakeChannel(fake.snowflakes.next(), f"lama-{i + 1}", 0, guild.id, i)
        channel.messages = Watched()
        guild.channels[channel.id] = fake.channels[channel.id] = channel
        channels.append(channel)
        users = fake.add_users(humans, prefix=f"g{i + 1}p")
        for user in users:
            guild.members[user.id] = user
            fake.dm_channel(user).messages = Watched()
        players.append(users)
    return fake, channels, players


async def count_moves(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM moves"))
    finally:
        await conn.close()


async def run(config: LoadConfig, url: str) -> dict:
    fake, channels, players = await build_world(config.games, config.humans,
                                                validate=config.validate)
    await fake.start()
    point_discord_at(fake.base_url)
    try:
        for guild_id in fake.guilds:
            await seed_settings(url, guild_id, config.ai_delay)  # type: ignore[arg-type]
        async with AsyncExitStack() as stack:
            procs = []
            for shard in range(SHARDS):
                env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_URL": url,
                       "SHARD_COUNT": str(SHARDS), "SHARD_IDS": str(shard), **config.env}
                proc = await stack.enter_async_context(run_bot_process(
                    fake, [sys.executable, "bot.py"], env=env, cwd=REPO, shard_id=shard,
                    timeout=60))
                await wait_for_log(proc, "Logged in as")
                procs.append(proc)
            driver = Players(fake, config)
            gap = config.ramp / max(1, config.games)
            tasks = [asyncio.create_task(driver.game(channel, users, i * gap))
                     for i, (channel, users) in enumerate(zip(channels, players, strict=True))]
            await asyncio.sleep(config.ramp + config.warmup)
            moves_before = await count_moves(url)
            cpu_before = [cpu_seconds(p.process.pid) for p in procs]
            start = time.perf_counter()
            await asyncio.sleep(config.duration)
            end = time.perf_counter()
            moves = await count_moves(url) - moves_before
            cpu = [cpu_seconds(p.process.pid) - b for p, b in zip(procs, cpu_before, strict=True)]
            driver.stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            for proc in procs:
                await stop_bot(proc)
            errors = driver.errors + [str(e) for e in fake.take_errors()]
            errors += [f"process {n} logged a traceback" for n, p in enumerate(procs)
                       if "Traceback" in p.output()]
    finally:
        await fake.stop()
        restore_real_discord()
    answered = [i.elapsed for i in driver.log
                if start <= i.at <= end and i.elapsed is not None]
    dm = [i.elapsed for i in driver.log
          if start <= i.at <= end and i.elapsed is not None and i.kind == "button"]
    return {
        "games": config.games, "seconds": round(end - start, 1),
        "durable_moves_per_s": round(moves / (end - start), 1),
        "first_answer_ms": _ms(answered), "dm_button_first_answer_ms": _ms(dm),
        "cpu_share": {f"process {n} (shard {n})": round(c / (end - start), 3)
                      for n, c in enumerate(cpu)},
        "interactions": len(answered), "error_count": len(errors), "errors": errors[:20],
    }


def _ms(values: list[float]) -> dict:
    if not values:
        return {}
    return {"p50": round(statistics.median(values) * 1000, 1),
            "p99": round(percentile(values, 99) * 1000, 1),
            "max": round(max(values) * 1000, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], prog="processes --paced")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--ramp", type=float, default=10.0,
                        help="seconds over which the games open their lobbies")
    parser.add_argument("--rest", type=int, default=30,
                        help="REST_CALLS_PER_SECOND of the bot, split between the processes")
    parser.add_argument("--quick", action="store_true", help="10 games, a 10 s window")
    args = parser.parse_args(argv)
    games, seconds = (10, 10.0) if args.quick else (args.games, args.seconds)
    config = LoadConfig(games=games, duration=seconds, ramp=args.ramp,
                        env={"RENDER_DELAY": "0.3", "REST_CALLS_PER_SECOND": str(args.rest)})
    cluster = start_cluster(DURABLE)
    try:
        url = asyncio.run(cluster.create_database("processes"))
        result = asyncio.run(run(config, url))
    finally:
        cluster.stop()
    result["rest_calls_per_second"] = args.rest
    result["machine"] = {"cpus": os.cpu_count(), "python": platform.python_version()}
    print(json.dumps(result, indent=2))
    if not args.quick:
        OUT.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
