"""python -m benchmarks.yardstick: LamaBot against a bare discord.py bot, one driver (issue 14).

Both bots run in turn as subprocesses against the loopback Discord (this process, with the
driver). The same scripted people play 100 concurrent 3-player games in each, only through
slash commands and autocomplete (/lama new, join, start; per turn: the card autocomplete,
then /play, /draw or /quit), and the same figures come out of both:

- **closed loop**: every game's next interaction goes out as soon as its last one was
  answered; interactions/s and p50/p99 (sent → first answer, as the driver sees it);
- **open loop**: interactions offered at one fixed rate (by default a quarter of the bare
  bot's closed-loop rate, i.e. half of what the target asks LamaBot to carry), the next one
  going to any game not waiting for an answer; p50/p99 from the moment it was due.
The ratios LamaBot/bare are what issues 14 and 33 target: throughput ≥ 0.5×, p99 at the same
offered load ≤ 2×, CPU per interaction (the bot process's CPU time over the interactions it
answered) ≤ 1.5× in both loops; and no full garbage collection of LamaBot's longer than 20 ms
(each bot reports its collections, gc_watch.py). Each bot runs `--rounds` times in each loop,
the two side by side each time; the ratios are the rounds' medians
(benchmarks/yardstick_figures.py). `--profile` samples LamaBot with py-spy during its first
closed-loop window; `--trace` times LamaBot's answer path in its open-loop runs
(benchmarks/answer_trace.py) and cuts every interaction's latency into its segments
(benchmarks/latency_parts.py). Figures: benchmarks/yardstick.json; docs/performance.md
explains them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.bot_reports import BotReports
from benchmarks.botload import (
    REPO,
    LoadConfig,
    bot_args,
    bot_env,
    build_world,
    cpu_seconds,
    seed_settings,
    stop_bot,
    wait_for_log,
)
from benchmarks.latency_parts import GcPauses, Sample, bot_stamps, decompose, fake_view
from benchmarks.yardstick_figures import ratios, summary
from cogs.moves import NO_CARD
from loopback.hook import point_discord_at, restore_real_discord
from loopback.running import BOT_TOKEN, run_bot_process

OUT = Path(__file__).with_name("yardstick.json")
PLAYERS = 3
SETTLE_S = 1.0  # after the driver's last collection, before the measured window


@dataclass
class Contender:
    name: str
    moved: Callable  # InteractionResult -> the move was accepted (not a refusal)


def _lamabot_moved(result) -> bool:
    """LamaBot answers an accepted move with the mover's hand (an embed); refusals are text."""
    message = result.message
    return message is not None and bool(message.embeds or message.components)


def _bare_moved(result) -> bool:
    return not result.content.startswith("⚠️")


LAMABOT, BARE = Contender("lamabot", _lamabot_moved), Contender("bare", _bare_moved)


@dataclass
class Pace:
    """When the next interaction may go: at once (closed loop) or at a fixed rate."""

    rate: float | None = None
    tickets: asyncio.Queue = field(default_factory=asyncio.Queue)

    async def next(self) -> float:
        if self.rate is None:
            return time.perf_counter()
        return await self.tickets.get()

    async def run(self, stop: asyncio.Event) -> None:
        if self.rate is None:
            return
        start, issued = time.perf_counter(), 0
        while not stop.is_set():
            due = int((time.perf_counter() - start) * self.rate)
            for n in range(issued, due):
                self.tickets.put_nowait(start + n / self.rate)
            issued = max(issued, due)
            await asyncio.sleep(0.002)


class People:
    """The players of every game; each game plays on (a new one when one ends) until stop."""

    def __init__(self, fake, contender: Contender, pace: Pace, seed: int = 1) -> None:
        self.fake, self.contender, self.pace = fake, contender, pace
        self.rng = random.Random(seed)
        self.samples: list[Sample] = []
        self.stop = asyncio.Event()

    async def _ask(self, kind: str, user, call: Callable):
        due = await self.pace.next()
        sent = time.perf_counter()
        result = await call()
        sample = Sample(kind, due, sent, time.perf_counter())
        record = self._record_of(user)
        if record is not None and record.answered_after is not None:
            sample.interaction_id, sample.dispatched = record.id, record.started
            sample.answered = record.started + record.answered_after
        self.samples.append(sample)
        return result

    def _record_of(self, user):
        """The fake's record of this user's newest interaction (one at a time per game)."""
        for record in reversed(self.fake.interactions_by_token.values()):
            if record.user.id == user.id:
                return record
        return None

    async def _move(self, user, channel, command: str, **options) -> bool:
        result = await self._ask(
            "move", user, lambda: self.fake.slash(user, channel, command, **options))
        return self.contender.moved(result)

    async def game(self, channel, users) -> None:
        host, *guests = users
        while not self.stop.is_set():
            await self._ask("lobby", host, lambda: self.fake.slash(host, channel, "lama new"))
            for guest in guests:
                await self._ask("lobby", guest,
                                lambda g=guest: self.fake.slash(g, channel, "lama join"))
            await self._ask("lobby", host, lambda: self.fake.slash(host, channel, "lama start"))
            await self._play(channel, users)

    async def _play(self, channel, users) -> None:
        """Turns in seat order; a player who quit is skipped until nobody else can move (a
        new round); when nobody at all can move, the game is over."""
        quit_: set[int] = set()
        turn = misses = 0
        while not self.stop.is_set():
            active = [u for u in users if u.id not in quit_]
            if misses >= len(active):
                if not quit_:
                    return
                quit_.clear()
                misses = 0
                continue
            user = users[turn % len(users)]
            turn += 1
            if user.id in quit_:
                continue
            outcome = await self._turn(user, channel)
            misses = 0 if outcome else misses + 1
            if outcome == "quit":
                quit_.add(user.id)

    async def _turn(self, user, channel) -> str | None:
        """As a player types: the card autocomplete, then a card, else draw, else quit."""
        choices = await self._ask("autocomplete", user, lambda: self.fake.autocomplete(
            user, channel, "play", focused="card", card=""))
        # LamaBot says why it offers no card in a choice of its own: a player reads it and
        # draws, as one does where the bare bot offers nothing
        cards = [c["value"] for c in choices if c["value"] != NO_CARD]
        if cards and self.rng.random() < 0.9:
            card = self.rng.choice(cards)
            if await self._move(user, channel, "play", card=card):
                return "moved"
        if self.rng.random() < 0.8 and await self._move(user, channel, "draw"):
            return "moved"
        return "quit" if await self._move(user, channel, "quit") else None


# ------------------------------------------------------------------------ one run


async def _start(contender: Contender, fake, workdir: Path, args, reports: BotReports):
    extra = {**dict(pair.split("=", 1) for pair in args.env), **reports.env()}
    if contender is BARE:
        command = reports.command([sys.executable, "-m", "benchmarks.minimal_bot"])
        env = {"DISCORD_TOKEN": BOT_TOKEN, "PYTHONPATH": str(REPO), **extra}
        return run_bot_process(fake, command, env=env, cwd=REPO, timeout=60), None
    db = workdir / f"yardstick-{time.monotonic_ns()}.sqlite3"
    await seed_settings(db, fake.guild.id, None)  # turn timers far beyond the window
    env = {**bot_env(db, extra), "PYTHONPATH": str(REPO)}
    command = reports.command(bot_args(None))
    if args.trace:  # the same bot, its answer path timed (benchmarks/answer_trace.py)
        command = [sys.executable, "-m", "benchmarks.answer_trace"]
        env.update(LAMABOT_TRACE=str(args.trace))
    return run_bot_process(fake, command, env=env, cwd=REPO, timeout=60), "Logged in as"


async def run_once(contender: Contender, args, workdir: Path, rate: float | None,
                   profile: Path | None = None) -> dict:
    config = LoadConfig(games=args.games, humans=PLAYERS, ai_seats=0)
    fake, channels, players = build_world(config)
    fake.response_deadline = 60.0  # a late answer is measured, not refused
    await fake.start()
    point_discord_at(fake.base_url)
    reports = BotReports(workdir, contender.name, "open" if rate else "closed", args.cpu_profile)
    try:
        starting, ready_log = await _start(contender, fake, workdir, args, reports)
        async with starting as proc:
            if ready_log is not None:
                await wait_for_log(proc, ready_log)
            pace = Pace(rate)
            people = People(fake, contender, pace)
            ticker = asyncio.create_task(pace.run(people.stop))
            games = [asyncio.create_task(people.game(channel, users))
                     for channel, users in zip(channels, players, strict=True)]
            await asyncio.sleep(args.warmup)
            pid = proc.process.pid
            async with driver_gc_off(args.driver_gc):  # its last collection, then the window
                spy = _py_spy(pid, args.window, profile) if profile else None
                reports.window_starts(pid)
                cpu_before, start = cpu_seconds(pid), time.perf_counter()
                driver_before = time.process_time()
                with GcPauses() as driver_gc:
                    await asyncio.sleep(args.window)
                end, cpu = time.perf_counter(), cpu_seconds(pid) - cpu_before
                driver_cpu = time.process_time() - driver_before
            await reports.window_ended(pid)
            people.stop.set()
            for task in games:  # open loop: a game may wait for a ticket that never comes
                task.cancel()
            await asyncio.wait([ticker, *games], timeout=30)
            if spy is not None:
                await asyncio.to_thread(spy.wait)
            await stop_bot(proc)
            errors = [str(e) for e in fake.take_errors()][:10]
    finally:
        await fake.stop()
        restore_real_discord()
    figures = summary(people.samples, (start, end), cpu, rate, errors)
    figures["driver_cpu_share"] = round(driver_cpu / (end - start), 3)
    figures["fake_dispatch_to_answer"] = fake_view(fake, start, end)
    figures["driver_gc"] = driver_gc.figures()
    interactions = round(figures["interactions_per_s"] * (end - start))
    figures.update(reports.figures((start, end), interactions))
    stamps = bot_stamps(args.trace) if args.trace and contender is LAMABOT else {}
    figures["where_the_time_goes"] = decompose(people.samples, (start, end), stamps)
    return figures


@contextlib.asynccontextmanager
async def driver_gc_off(keep: bool) -> AsyncIterator[None]:
    """The driver's garbage collector off for the measured window (unless `keep`). The
    loopback Discord keeps every request it served, so the driver's full collections grew to
    0.2-0.8 s within a run, the longer the more a bot sends: each one stopped the tickets and
    the fake for both bots, and landed in the measured bot's tail and closed loop as if it
    were the bot's. Twenty seconds of the driver's garbage fit in memory."""
    if keep:
        yield
        return
    gc.collect()
    gc.disable()
    await asyncio.sleep(SETTLE_S)  # the collection's pause and the tickets it held up: unmeasured
    try:
        yield
    finally:
        gc.enable()


def _py_spy(pid: int, seconds: float, out: Path) -> subprocess.Popen:
    command = ["py-spy", "record", "--pid", str(pid), "--duration", str(int(seconds)),
               "--rate", "200", "--format", "raw", "--output", str(out), "--nonblocking"]
    bin_dir = Path(sys.executable).parent
    if (bin_dir / "py-spy").exists():
        command[0] = str(bin_dir / "py-spy")
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run(args) -> dict:
    """Each run in a fresh process: a driver that has kept one run's garbage pauses for it
    in the next (a full collection over ~100,000 recorded requests took ~1 s). `--rounds`
    runs each bot that many times in each loop, the two side by side every time."""
    report: dict = {"games": args.games, "players": PLAYERS, "window_s": args.window,
                    "rounds": [{} for _ in range(args.rounds)]}
    for n, one in enumerate(report["rounds"]):
        for contender in (BARE, LAMABOT):
            print(f"  yardstick: {contender.name}, closed loop, round {n + 1} ...", flush=True)
            profile = args.profile if contender is LAMABOT and n == 0 else None
            one[contender.name] = {"closed": _run_child(args, contender, None, profile)}
            print("   ", json.dumps(one[contender.name]["closed"]), flush=True)
    rate = args.rate or round(args.offered_share * statistics.median(
        one["bare"]["closed"]["interactions_per_s"] for one in report["rounds"]), 1)
    for n, one in enumerate(report["rounds"]):
        for contender in (BARE, LAMABOT):
            print(f"  yardstick: {contender.name}, open loop at {rate}/s, round {n + 1} ...",
                  flush=True)
            one[contender.name]["open"] = _run_child(args, contender, rate, None)
            print("   ", json.dumps(one[contender.name]["open"]), flush=True)
    report.update(report["rounds"][-1])  # the last round's runs in full, as before rounds
    report["ratios"] = ratios(report)
    return report


def _run_child(args, contender: Contender, rate: float | None, profile: Path | None) -> dict:
    command = [sys.executable, "-m", "benchmarks.yardstick", "--one", contender.name,
               "--games", str(args.games), "--window", str(args.window),
               "--warmup", str(args.warmup)]
    command += ["--rate", str(rate)] if rate else []
    command += ["--profile", str(profile)] if profile else []
    command += [f"--env={pair}" for pair in args.env]
    command += ["--driver-gc"] if args.driver_gc else []
    command += ["--cpu-profile", str(args.cpu_profile)] if args.cpu_profile else []
    if args.trace and contender is LAMABOT and rate:
        command += ["--trace", str(args.trace)]
    out = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True,
                         timeout=args.warmup + args.window + 240)  # a stuck run fails, loudly
    return json.loads(out.stdout.strip().splitlines()[-1])


async def _one(args) -> dict:
    contender = LAMABOT if args.one == LAMABOT.name else BARE
    with tempfile.TemporaryDirectory() as tmp:
        return await run_once(contender, args, Path(tmp), args.rate, args.profile)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--window", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=4.0)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each bot in each "
                        "loop, side by side; the ratios are the rounds' medians")
    parser.add_argument("--rate", type=float, help="open-loop interactions/s (default: "
                        "--offered-share of the bare bot's closed-loop rate)")
    parser.add_argument("--offered-share", type=float, default=0.25)
    parser.add_argument("--profile", type=Path, help="py-spy LamaBot's closed loop: raw "
                        "(collapsed) stacks to this file")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                        help="an environment variable for both bots (e.g. REST_CALLS_PER_SECOND)")
    parser.add_argument("--trace", type=Path, help="LamaBot's open loop with its answer path "
                        "timed (benchmarks/answer_trace.py): JSON to this file")
    parser.add_argument("--cpu-profile", type=Path, help="sample both bots' CPU in their "
                        "windows (benchmarks/cpu_sampler.py): stacks to DIR/BOT-LOOP.txt, sums "
                        "in each run's figures")
    parser.add_argument("--driver-gc", action="store_true", help="leave the driver's "
                        "garbage collector on while measuring (before 2026-12-01)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--one", choices=(BARE.name, LAMABOT.name), help=argparse.SUPPRESS)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.cpu_profile:
        args.cpu_profile.mkdir(parents=True, exist_ok=True)
    if args.one:  # a child of run(): one run, its figures as the last line
        print(json.dumps(asyncio.run(_one(args))))
        return 0
    report = run(args)
    report["command"] = "python -m benchmarks.yardstick " + " ".join(
        sys.argv[1:] if argv is None else argv)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report["ratios"], indent=2))
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
