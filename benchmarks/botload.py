"""Scripted players against the real bot: bot.py in a subprocess, the loopback Discord here.

Every game has its own channel and its own users. A human waits for their newest hand DM to
have live buttons (the bot's "your turn" DM), thinks, then presses a button there or uses a
slash command in the game's channel, as a person would. The fake Discord times every
interaction from dispatch to the bot's first answer (`InteractionResult.elapsed`); the moves
come from the bot's own database, so only committed moves count.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from loopback.hook import point_discord_at, restore_real_discord
from loopback.places import FakeChannel
from loopback.running import BOT_TOKEN, run_bot_process
from loopback.server import FakeDiscord
from store import GuildSettings, Store

REPO = Path(__file__).resolve().parents[1]
HAND = "lama:h:"
REMATCH = "lama:r:"


@dataclass
class LoadConfig:
    games: int
    humans: int = 2
    ai_seats: int = 2
    think: tuple[float, float] = (1.0, 3.0)  # seconds a human takes per move, uniform
    slash_share: float = 0.2  # moves made with /play, /draw, /quit instead of a DM button
    ai_delay: float | None = None  # None: the server default (1.5 s)
    ramp: float = 5.0  # games open their lobbies spread over this many seconds
    warmup: float = 5.0  # after the ramp, before measuring
    duration: float = 30.0  # the measured window
    env: dict[str, str] = field(default_factory=dict)  # e.g. RENDER_DELAY, REST_CALLS_PER_SECOND
    validate: bool = False  # the fake's OpenAPI validation of every request
    profile: Path | None = None  # pyinstrument the bot process, text report here
    seed: int = 1


@dataclass
class Interaction:
    at: float  # perf_counter when sent
    kind: str  # button, slash, autocomplete, lobby
    elapsed: float | None
    refused: bool
    clock: float = 0.0  # the fake's clock when sent (its REST calls are timed on it)
    channel_id: int = 0  # the game's channel


@dataclass
class LoadResult:
    config: LoadConfig
    interactions: list[Interaction]
    window: tuple[float, float]  # perf_counter
    moves: dict[str, int]  # committed in the window, by actor
    rest_calls: list  # RestCall made in the window
    dm_channel_ids: set[int]
    rss_kb: dict[str, int]  # bot process resident memory: at ready, at the end of the window
    cpu_s: float  # bot process CPU seconds (user + system) in the window
    driver_cpu_s: float  # this process (fake Discord + players) CPU seconds in the window
    games_running: int
    errors: list[str]
    rate_limit_hits: int = 0  # 429s the fake answered
    longest_stale_s: float = 0.0  # longest time a player had 2+ messages with live buttons

    def measured(self, *kinds: str) -> list[float]:
        start, end = self.window
        return [
            i.elapsed
            for i in self.interactions
            if start <= i.at <= end and i.elapsed is not None and (not kinds or i.kind in kinds)
        ]


class Watched(list):
    """A channel's message list that wakes whoever waits for a new message in it."""

    def __init__(self, items=()) -> None:
        super().__init__(items)
        self.changed = asyncio.Event()

    def append(self, item) -> None:
        super().append(item)
        self.changed.set()

    async def wait(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)


def build_world(config: LoadConfig) -> tuple[FakeDiscord, list[FakeChannel], list[list]]:
    fake = FakeDiscord(members=(), channels=(), validate=config.validate)
    fake.wait_timeout = 60.0  # a late answer is measured, not a driver failure
    channels, players = [], []
    for i in range(config.games):
        channel = FakeChannel(fake.snowflakes.next(), f"lama-{i + 1}", 0, fake.guild.id, i)
        channel.messages = Watched()
        fake.guild.channels[channel.id] = fake.channels[channel.id] = channel
        channels.append(channel)
        users = fake.add_users(config.humans, prefix=f"g{i + 1}p")
        for user in users:
            fake.dm_channel(user).messages = Watched()
        players.append(users)
    return fake, channels, players


def _newest_hand(messages):
    """The newest message with live hand buttons (a DM, or one of the player's ephemerals;
    a deleted one is gone from their screen)."""
    live = [m for m in messages if not m.deleted and any(
        b.custom_id and b.custom_id.startswith(HAND) and not b.disabled for b in m.buttons)]
    return max(live, key=lambda m: m.id) if live else None


class Players:
    """The scripted people: lobby commands, then moves on their turn until told to stop."""

    def __init__(self, fake: FakeDiscord, config: LoadConfig) -> None:
        self.fake, self.config = fake, config
        self.rng = random.Random(config.seed)
        self.log: list[Interaction] = []
        self.errors: list[str] = []
        self.stop = asyncio.Event()
        self.ephemerals: dict[int, list] = {}  # user -> the ephemeral hands they were shown

    async def _timed(self, kind: str, call, channel_id: int = 0):
        sent, clock = time.perf_counter(), self.fake.clock()
        result = await call
        elapsed = result.elapsed if hasattr(result, "elapsed") else time.perf_counter() - sent
        refused = getattr(result, "refused", None) is not None
        self.log.append(Interaction(sent, kind, elapsed, refused, clock, channel_id))
        if refused:
            self.errors.append(f"{kind}: refused {result.refused}")
        return result

    async def game(self, channel: FakeChannel, users: list, start_after: float) -> None:
        fake = self.fake
        await asyncio.sleep(start_after)
        host, *others = users
        opened = await self._timed(
            "lobby", fake.slash(host, channel, "lama new", ai_seats=self.config.ai_seats)
        )
        for user in others:
            await self._timed("lobby", fake.slash(user, channel, "lama join"))
        while not self.stop.is_set():  # a rematch seats everyone again: no joins needed
            await self._timed("lobby", fake.slash(host, channel, "lama start"))
            seen = len(channel.messages)
            tasks = [asyncio.create_task(self.human(user, channel)) for user in users]
            ended = await self._game_over(channel, seen)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if ended is None:
                return
            opened = await self._timed("lobby", fake.click(host, ended, ended.custom_ids[0]))
        del opened

    async def _game_over(self, channel: FakeChannel, seen: int):
        messages = channel.messages
        while not self.stop.is_set():
            messages.changed.clear()
            for message in messages[seen:]:
                if any(c.startswith(REMATCH) for c in message.custom_ids):
                    return message
            await messages.wait(1.0)
        return None

    async def human(self, user, channel: FakeChannel) -> None:
        messages = self.fake.dm_channels[user.id].messages
        mine = self.ephemerals.setdefault(user.id, [])  # the ephemeral hands they were shown
        acted_on: tuple[int, int] | None = None
        while not self.stop.is_set():
            messages.changed.clear()
            hand = _newest_hand([*messages, *mine[-3:]])
            live = [b for b in hand.buttons if not b.disabled] if hand else []
            if not live or (hand.id, hand.edits) == acted_on:
                await messages.wait(0.25)  # edits do not wake us: look again soon
                continue
            low, high = self.config.think
            await asyncio.sleep(self.rng.uniform(low, high))
            if self.stop.is_set():
                return
            live = [b for b in hand.buttons if not b.disabled]  # may have changed meanwhile
            if not live:
                continue
            acted_on = await self._move(user, channel, hand, live, mine)

    async def _move(self, user, channel, hand, live, mine: list) -> tuple[int, int]:
        fake, rng = self.fake, self.rng
        codes = [b.custom_id.rsplit(":", 1)[1] for b in live]
        cards = [c for c in codes if c not in ("draw", "quit")]
        if cards and rng.random() < 0.9:
            code = rng.choice(cards)
        elif "draw" in codes and rng.random() < 0.6:
            code = "draw"
        else:
            code = "quit" if "quit" in codes else rng.choice(codes)
        if rng.random() >= self.config.slash_share:
            if code == "quit":  # Quit asks first, in place: then "Yes, quit"
                button = next(b for b in live if b.custom_id.endswith(":quit"))
                await self._timed("button", fake.click(user, hand, button.custom_id))
                code = "quitok"
            button = next(b for b in hand.buttons if b.custom_id.endswith(f":{code}"))
            result = await self._timed(
                "button", fake.click(user, hand, button.custom_id), channel.id)
            return (hand.id, result.message.edits if result.message else hand.edits)
        if code in ("draw", "quit"):
            result = await self._timed("slash", fake.slash(user, channel, code), channel.id)
        else:
            await self._timed(
                "autocomplete", fake.autocomplete(user, channel, "play", focused="card", card="")
            )
            result = await self._timed(
                "slash", fake.slash(user, channel, "play", card=code), channel.id)
        if result.message is not None:
            mine.append(result.message)
        return (hand.id, hand.edits)


# ------------------------------------------------------------------ the bot process


async def seed_settings(db_path: Path, guild_id: int, ai_delay: float | None) -> None:
    """The server's game settings, saved before the bot starts (as /lama settings would)."""
    store = await Store.open(db_path)
    try:
        defaults = await store.settings.get_settings(guild_id)
        await store.settings.save_settings(
            GuildSettings(
                guild_id,
                turn_timeout_s=600,  # nobody times out during a measurement
                ai_delay_s=defaults.ai_delay_s if ai_delay is None else ai_delay,
            ),
            now=int(time.time()),
        )
    finally:
        await store.close()


def bot_args(profile: Path | None) -> list[str]:
    if profile is None:
        return [sys.executable, "bot.py"]
    return [sys.executable, "-m", "pyinstrument", "-r", "text", "-o", str(profile), "bot.py"]


def bot_env(db_path: Path, extra: dict[str, str]) -> dict[str, str]:
    return {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_PATH": str(db_path), **extra}


async def wait_for_log(proc, text: str, timeout: float = 60.0) -> float:
    """perf_counter when `text` first shows in the bot's log."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if text in proc.output():
            return time.perf_counter()
        if proc.process.returncode is not None:
            raise RuntimeError(f"the bot exited:\n{proc.output()[-3000:]}")
        await asyncio.sleep(0.01)
    raise TimeoutError(f"{text!r} not in the bot's log after {timeout} s:\n{proc.output()[-3000:]}")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def count_moves(db_path: Path) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT actor, count(*) FROM moves GROUP BY actor").fetchall()
    return dict(rows)


def running_games(db_path: Path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as db:
        return db.execute("SELECT count(*) FROM games WHERE status = 'running'").fetchone()[0]


async def stop_bot(proc) -> None:
    """SIGINT: discord.py closes cleanly and pyinstrument (if any) writes its report."""
    if proc.process.returncode is None:
        proc.process.send_signal(signal.SIGINT)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.process.wait(), 60)


async def run_load(config: LoadConfig, workdir: Path) -> LoadResult:
    fake, channels, players = build_world(config)
    db_path = workdir / f"load-{config.games}-{os.getpid()}-{time.monotonic_ns()}.sqlite3"
    await fake.start()
    point_discord_at(fake.base_url)
    try:
        await seed_settings(db_path, fake.guild.id, config.ai_delay)
        args, env = bot_args(config.profile), bot_env(db_path, config.env)
        async with run_bot_process(fake, args, env=env, cwd=REPO, timeout=60) as proc:
            pid = proc.process.pid
            await wait_for_log(proc, "Logged in as")
            rss_ready = rss_kb(pid)
            driver = Players(fake, config)
            gap = config.ramp / max(1, config.games)
            tasks = [
                asyncio.create_task(driver.game(channel, users, i * gap))
                for i, (channel, users) in enumerate(zip(channels, players, strict=True))
            ]
            await asyncio.sleep(config.ramp + config.warmup)
            moves_before, calls_before = count_moves(db_path), len(fake.calls)
            cpu_before, driver_before = cpu_seconds(pid), time.process_time()
            start = time.perf_counter()
            sampler = asyncio.create_task(_longest_stale(fake, driver, players, config.duration))
            await asyncio.sleep(config.duration)
            end = time.perf_counter()
            longest_stale = await sampler
            moves_after, calls_after = count_moves(db_path), len(fake.calls)
            cpu, driver_cpu = cpu_seconds(pid) - cpu_before, time.process_time() - driver_before
            rss_end = rss_kb(pid)
            games = running_games(db_path)
            driver.stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            await stop_bot(proc)
            errors = driver.errors + [str(e) for e in fake.take_errors()]
            if "Traceback" in proc.output():
                errors.append("the bot logged a traceback: " + proc.output()[-2000:])
    finally:
        await fake.stop()
        restore_real_discord()
    moves = {k: moves_after.get(k, 0) - moves_before.get(k, 0) for k in moves_after}
    return LoadResult(
        config=config,
        interactions=driver.log,
        window=(start, end),
        moves=moves,
        rest_calls=fake.calls[calls_before:calls_after],
        dm_channel_ids={c.id for c in fake.dm_channels.values()},
        rss_kb={"ready": rss_ready, "end": rss_end},
        cpu_s=cpu,
        driver_cpu_s=driver_cpu,
        games_running=games,
        errors=errors,
        rate_limit_hits=len(fake.ratelimits.hits),
        longest_stale_s=longest_stale,
    )


async def _longest_stale(fake: FakeDiscord, driver: Players, players, duration: float) -> float:
    """Sample every player's messages 4 times a second: the longest stretch in which one
    player saw more than one message with live hand buttons."""
    since: dict[int, float] = {}
    longest = 0.0
    end = time.perf_counter() + duration
    while time.perf_counter() < end:
        now = time.perf_counter()
        for users in players:
            for user in users:
                dm = fake.dm_channels.get(user.id)
                # the newest few: an older message only ever loses its buttons
                seen = [*(dm.messages[-6:] if dm else ()), *driver.ephemerals.get(user.id, [])[-4:]]
                live = sum(1 for m in seen if not m.deleted and any(
                    b.custom_id and b.custom_id.startswith(HAND) and not b.disabled
                    for b in m.buttons))
                if live > 1:
                    longest = max(longest, now - since.setdefault(user.id, now))
                else:
                    since.pop(user.id, None)
        await asyncio.sleep(0.25)
    return longest
