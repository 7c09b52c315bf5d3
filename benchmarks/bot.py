"""The bot's speed and scale, measured: `python -m benchmarks.bot` (issue 7).

Starts the real bot (`bot.py`, a subprocess) against the loopback Discord (this process) with a
fresh database, drives concurrent games with scripted humans and AI seats, and prints a table
and writes benchmarks/bot.json:

- interaction → first answer latency, p50/p99/max, at 10, 100 and 500 concurrent games;
- durable moves per second (counted in the bot's database: committed moves only);
- rate-limited REST calls per move in 4-human games, by route;
- resident memory per active game; start-up time with 1,000 unfinished games;
- the engine's `simulate` speed and the AI's decision time.

Options: --quick (short windows, for trying the harness), --only SECTION[,SECTION],
--profile LEVEL (pyinstrument the bot at that many games; text report next to the JSON),
--validate (keep the fake's OpenAPI validation on during the load runs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bot_report import (
    TARGETS,
    load_summary,
    percentile,
    print_report,
    targets,
)
from benchmarks.botload import (
    REPO,
    LoadConfig,
    bot_args,
    bot_env,
    rss_kb,
    run_load,
    wait_for_log,
)
from benchmarks.botstate import make_unfinished_games

OUT = Path(__file__).resolve().parent / "bot.json"
SECTIONS = ("latency", "throughput", "rest", "memory", "startup", "engine")
LEVELS = (10, 100, 500)


# ------------------------------------------------------------------------ sections


async def bench_latency(args, workdir: Path, report: dict) -> None:
    report["latency"] = {}
    for games in args.levels:
        config = LoadConfig(
            games=games,
            ramp=min(10.0, 1.0 + games / 50),
            duration=args.duration,
            validate=args.validate,
            profile=args.profile_path if args.profile == games else None,
        )
        print(f"  latency: {games} games ...", flush=True)
        result = await run_load(config, workdir)
        report["latency"][str(games)] = load_summary(result)


async def bench_throughput(args, workdir: Path, report: dict) -> None:
    """As fast as the bot goes: no thinking, AIs at once, every human move a DM button."""
    config = LoadConfig(
        games=args.throughput_games,
        think=(0.0, 0.0),
        ai_delay=0.0,
        slash_share=0.0,
        ramp=2.0,
        duration=args.duration,
        validate=args.validate,
        profile=args.profile_path if args.profile == -1 else None,
    )
    print(f"  throughput: {config.games} games, no think time ...", flush=True)
    report["throughput"] = load_summary(await run_load(config, workdir))


async def bench_rest(args, workdir: Path, report: dict) -> None:
    """4-human games, every move a DM button (the cheapest path), humans thinking 1-3 s."""
    report["rest"] = {}
    for name, env in (("default", {}),):  # the REST budget: benchmarks/table.py measures it
        config = LoadConfig(
            games=args.rest_games,
            humans=4,
            ai_seats=0,
            slash_share=0.0,
            ramp=2.0,
            duration=args.rest_duration,
            env=env,
            validate=True,  # small load: keep checking every request against the spec
        )
        print(f"  rest budget ({name}): {config.games} four-human games ...", flush=True)
        report["rest"][name] = load_summary(await run_load(config, workdir))


def _child(*argv: str) -> dict:
    out = subprocess.run(
        [sys.executable, *argv], cwd=REPO, capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


async def unfinished_db(workdir: Path, count: int) -> Path:
    path = workdir / f"unfinished-{count}.sqlite3"
    if not path.exists():
        print(f"  making {count} unfinished games ...", flush=True)
        await make_unfinished_games(path, count)
    return path


async def bench_memory(args, workdir: Path, report: dict) -> None:
    db = await unfinished_db(workdir, args.startup_games)
    rss = _child("-m", "benchmarks.botstate", str(db), "rss")
    trace = _child("-m", "benchmarks.botstate", str(db), "trace")
    games = rss["games"]
    memory = {
        "method": "a fresh process restores N unfinished 4-seat games (GameService.restore from "
        "SQLite); RSS growth, and separately tracemalloc's live bytes, divided by N",
        "games": games,
        "rss_kb_per_game": rss["rss_delta_kb"] / games,
        "tracemalloc_kb_per_game": trace["tracemalloc_bytes"] / 1024 / games,
    }
    load = report.get("latency", {})
    if str(max(args.levels)) in load:  # the live bot: RSS at the end of the window vs at ready
        run = load[str(max(args.levels))]
        grown = run["bot_rss_kb"]["end"] - run["bot_rss_kb"]["ready"]
        memory["live_bot_rss_kb_per_game"] = grown / run["games"]
        memory["live_bot_note"] = (
            f"bot.py RSS after {run['games']} games ran for the whole window minus RSS at ready; "
            "includes discord.py's caches and allocator slack"
        )
    report["memory"] = memory


async def bench_startup(args, workdir: Path, report: dict) -> None:
    """bot.py from exec to "Restored N unfinished games" (and to connected), median of 3."""
    from loopback.hook import point_discord_at, restore_real_discord
    from loopback.running import run_bot_process
    from loopback.server import FakeDiscord

    source = await unfinished_db(workdir, args.startup_games)
    runs = []
    for attempt in range(3):
        db = workdir / f"startup-{attempt}.sqlite3"
        shutil.copy(source, db)
        fake = FakeDiscord(validate=False)
        await fake.start()
        point_discord_at(fake.base_url)
        try:
            started = time.perf_counter()
            env = bot_env(db, {"LOG_LEVEL": "INFO"})
            async with run_bot_process(
                fake, bot_args(None), env=env, cwd=REPO, wait_connected=False
            ) as proc:
                restored = await wait_for_log(proc, "unfinished games")
                await fake.gateway.wait_connected(60)
                connected = time.perf_counter()
                line = next(x for x in proc.output().splitlines() if "unfinished games" in x)
                rss = rss_kb(proc.process.pid)
        finally:
            await fake.stop()
            restore_real_discord()
        runs.append(
            {"restored_s": restored - started, "connected_s": connected - started, "rss_kb": rss}
        )
    report["startup"] = {
        "games": args.startup_games,
        "log": line.split(": ", 1)[-1],
        "restored_s": statistics.median(r["restored_s"] for r in runs),
        "connected_s": statistics.median(r["connected_s"] for r in runs),
        "rss_kb": statistics.median(r["rss_kb"] for r in runs),
        "runs": runs,
        "method": "exec of bot.py (interpreter start and imports included) until its log says "
        "every unfinished game is restored; connected = gateway IDENTIFY done",
    }


def bench_engine(args, report: dict) -> None:
    command = [
        sys.executable, "-m", "lama", "simulate", "--variant", "classic", "--players", "4",
        "--rounds", str(args.rounds), "--seed", "1",
    ]
    out = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
    stats = json.loads(out.stdout)
    report["engine"] = {
        "simulate_command": " ".join(["python", *command[1:]]),
        "simulate_rounds_per_s": stats["rounds_per_second"],
        "ai": ai_decision_times(args.ai_decisions),
    }


def ai_decision_times(samples: int) -> dict:
    """Median time of one decision, on positions from 4-seat classic games of normal AIs."""
    from lama import Game
    from lama.ai import get_policy

    rng = random.Random(7)
    normal = get_policy("normal")
    positions = []
    game_seed = 0
    while len(positions) < samples:
        game_seed += 1
        game = Game.new("classic", 4, game_seed)
        while not game.is_over and len(positions) < samples:
            seat = game.current_seat
            obs = game.observation(seat)
            if rng.random() < 0.3:
                positions.append(obs)
            game.apply(seat, normal.choose(obs, rng))
    out = {"positions": len(positions)}
    for level in ("normal", "hard"):
        try:
            policy = get_policy(level)
        except (KeyError, ValueError):
            continue
        times = []
        for obs in positions:
            started = time.perf_counter()
            policy.choose(obs, random.Random(1))
            times.append(time.perf_counter() - started)
        out[level] = {
            "median_ms": 1000 * statistics.median(times),
            "p90_ms": 1000 * percentile(times, 90),
            "max_ms": 1000 * max(times),
        }
    return out


def machine() -> dict:
    cpu = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")),
        platform.processor(),
    )
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "load_average_at_start": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
    }


async def run(args) -> dict:
    report: dict = {"machine": machine(), "targets": TARGETS}
    workdir = Path(tempfile.mkdtemp(prefix="lamabench-"))
    try:
        if "latency" in args.only:
            await bench_latency(args, workdir, report)
        if "throughput" in args.only:
            await bench_throughput(args, workdir, report)
        if "rest" in args.only:
            await bench_rest(args, workdir, report)
        if "memory" in args.only:
            await bench_memory(args, workdir, report)
        if "startup" in args.only:
            await bench_startup(args, workdir, report)
        if "engine" in args.only:
            bench_engine(args, report)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return report


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot", description=__doc__.split(
        "\n")[0])
    parser.add_argument("--quick", action="store_true", help="short windows, fewer games")
    parser.add_argument("--only", default=",".join(SECTIONS), help=",".join(SECTIONS))
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)))
    parser.add_argument("--profile", type=int, help="pyinstrument the bot at this level "
                        "(-1: the throughput run)")
    parser.add_argument("--validate", action="store_true", help="fake validates every request")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.only = set(args.only.split(","))
    args.levels = [int(x) for x in args.levels.split(",")]
    args.duration = 8.0 if args.quick else 30.0
    args.rest_duration = 15.0 if args.quick else 90.0
    args.rest_games = 10 if args.quick else 30
    args.throughput_games = 50 if args.quick else 100
    args.startup_games = 200 if args.quick else 1000
    args.rounds = 10_000 if args.quick else 100_000
    args.ai_decisions = 30 if args.quick else 200
    args.profile_path = args.out.with_name("bot-profile.txt")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = asyncio.run(run(args))
    report["command"] = "python -m benchmarks.bot " + " ".join(argv or sys.argv[1:])
    if args.out.exists() and args.only != set(SECTIONS):  # a partial run updates its sections
        report = {**json.loads(args.out.read_text()), **report}
    report["targets_met"] = {name: ok for name, _v, _t, ok in targets(report)}
    args.out.write_text(json.dumps(report, indent=2, default=str) + "\n")
    print_report(report)
    print(f"\nwritten: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

