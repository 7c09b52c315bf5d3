"""A flood of web requests at 100,000 finished games: what the site serves, and what the
players on Discord wait meanwhile, before and after issue 33 side by side in one run.

    python -m benchmarks.flood [--games N] [--quiet S] [--seconds S] [--clients N]
                               [--configs before,after] [--mixes front,every,players]

The bot's side runs here as in the bot (one event loop, uvloop, the interpreter tuned as
bot.py tunes it: interpreter.py): the store on one SQLite file holding
benchmarks.leaderboard's 100,000 games of one server (made once and kept in the temporary
folder), the web site on a loopback port, and:
- moves: `--move-games` games of two humans in another server, each human moving a moment
  (0.05-0.15 s) after their turn came, every move through GameService (lock, engine,
  commit); timed from the call to its return;
- Discord's /leaderboard: every 0.25 s a random one of the 300 players asks for the board
  (StatsService.leaderboard, default sort, their own rank: what the cog asks), each on its
  own (they do not wait for each other); timed the same way;
- Discord's /lama stats: every 0.5 s a random player's (StatsService.player: its reads over
  all their games, 30-170 ms of a read connection), timed the same way.
First `--quiet` seconds with no flood, then a flood per mix: `--clients` web clients in a
process of their own (benchmarks/flood_clients.py, at a lower priority: on two cores it
stands in for clients on other machines), each bound to its own loopback address (127.0.0.x)
so that the per-client limit (6 at once) never refuses one, each asking one page after
another (a closed loop). Mixes: "front", the server's leaderboard page (what a shared link
leads to); "every", each request a random one of the 144 boards of benchmarks.web (every
sort, variant and period, pages 1 and 4); "players", each request a random player's page
(read anew: /lama stats' reads). Then, after issue 33 only, 50 clients from one address ("one
address"), which the limit answers with 429s.

Configurations: "before" is issue 33's starting point by flags (one read connection, no board,
totals or page kept, no limit per client nor pace: Store.open(read_connections=1), a
BoardCache that keeps nothing, RequestLimits(None, pages_per_s=None, reads_at_once=None));
"after" is the code's defaults (four read connections, kept boards, 6 requests per address,
300 new requests a second: pages/s cannot pass 300; pages read anew read in turns of half
the cores, in the store's reader processes: store/background.py);
"unturned" is "after" with pages read anew all reading at once (RequestLimits(
reads_at_once=None)), and so in the foreground (no turn, no background reads);
"before" and "unturned" need this code's RequestLimits;
"defaults" is whatever the imported code does by default
(run it with another checkout first on PYTHONPATH, e.g. main's, to measure that code).
Writes benchmarks/flood.json.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import interpreter
from benchmarks.flood_report import print_report, summary, web_summary
from benchmarks.leaderboard import GUILD, NOW, PLAYERS, make_games
from benchmarks.web import leaderboard_paths
from hosting import GameOptions, GameService, Status
from hosting.site import SiteService
from hosting.stats import StatsService
from store import Store
from store.bulk import insert_finished_games
from web import GuildProfile, Paths, SiteDeps, WebServer

OUT = Path(__file__).with_name("flood.json")
ROOT = Path(__file__).resolve().parent.parent
MOVES_GUILD = 1
BOARD_EVERY_S = 0.25
STATS_EVERY_S = 0.5
MOVE_AFTER_S = (0.05, 0.15)
SETTLE_S = 1.0  # between phases: samples then belong to none
ONE_ADDRESS_S = 5.0


class ShiftedClock:
    """Real time, started at benchmarks.leaderboard's NOW: the games' "this month" and
    "this week" are as that benchmark has them, and kept boards expire in real seconds."""

    def __init__(self) -> None:
        self._offset = NOW - time.time()

    def now(self) -> float:
        return time.time() + self._offset


@dataclass(frozen=True)
class Config:
    name: str
    read_connections: int | None  # None: the code's default
    keep_boards: bool | None
    limit: bool | None
    read_turns: bool | None = None  # False: pages read anew read all at once


CONFIGS = {
    "before": Config("before", 1, False, False),
    "after": Config("after", None, None, None),
    "unturned": Config("unturned", None, None, None, read_turns=False),
    "defaults": Config("defaults", None, None, None),
}


async def template(games: int) -> Path:
    """The database of `games` finished games, made once per machine (temporary folder)."""
    path = Path(tempfile.gettempdir()) / f"lamabot-flood-{games}.sqlite3"
    if path.exists():
        return path
    print(f"making {games:,} finished games once, kept in {path} ...", flush=True)
    making = path.with_suffix(".making")
    making.unlink(missing_ok=True)
    store = await Store.open(making)
    try:
        await insert_finished_games(store.db, make_games(games, random.Random(5)))
        await SiteService(store, ShiftedClock()).update_access(GUILD, public=True)
    finally:
        await store.close()
    making.rename(path)
    return path


@dataclass
class Bot:
    """The bot's side: store, game service, statistics and the web site on a free port."""

    store: Store
    service: GameService
    stats: StatsService
    server: WebServer

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    async def close(self) -> None:
        await self.server.stop()
        await self.store.close()


async def open_bot(config: Config, path: Path) -> Bot:
    clock = ShiftedClock()
    store = await (Store.open(path) if config.read_connections is None
                   else Store.open(path, read_connections=config.read_connections))
    service = GameService(store, clock)
    boards = {}
    if config.keep_boards is False:
        from hosting.board_cache import BoardCache
        boards = {"boards": BoardCache(clock, ttl_s=0)}
    stats = StatsService(store, clock, preferences=service.preferences, **boards)
    if hasattr(stats, "on_game_update"):  # the code of issue 33 on: as bot.py wires it
        service.add_listener(stats.on_game_update)

    async def profile(guild_id: int) -> GuildProfile:
        return GuildProfile("Benchmark", "en")

    limit = {}
    if config.limit is False:
        from web.limits import RequestLimits
        limit = {"limits": RequestLimits(None, pages_per_s=None, reads_at_once=None)}
    elif config.read_turns is False:
        from web.limits import RequestLimits
        limit = {"limits": RequestLimits(reads_at_once=None)}
    server = WebServer(SiteDeps(stats, SiteService(store, clock), profile), host="127.0.0.1",
                       port=0, **limit)
    await server.start()
    return Bot(store, service, stats, server)


Samples = list[tuple[float, float]]  # (when it began, ms)


async def open_games(service: GameService, count: int) -> list[int]:
    ids = []
    for n in range(count):
        host, guest = 10_000 + 2 * n, 10_001 + 2 * n
        options = GameOptions(turn_timeout=3600, target=200)  # long games: none ends
        game_id = (await service.open_lobby(MOVES_GUILD, 100 + n, host, "host", options)
                   ).view.game_id
        await service.join(game_id, guest, "guest")
        await service.start(game_id, host)
        ids.append(game_id)
    return ids


async def keep_moving(service: GameService, game_id: int, stop: float, samples: Samples
                      ) -> None:
    rng = random.Random(game_id)
    while time.perf_counter() < stop:
        await asyncio.sleep(rng.uniform(*MOVE_AFTER_S))
        view = service.view(game_id)
        if view.status is not Status.RUNNING:
            return
        user = view.seats[view.current_seat].user_id
        obs = service.observation(game_id, user)
        start = time.perf_counter()
        if obs.legal_plays and rng.random() < 0.8:
            await service.play(game_id, user, rng.choice(obs.legal_plays))
        elif obs.can_draw:
            await service.draw(game_id, user)
        else:
            await service.quit_round(game_id, user)
        samples.append((start, (time.perf_counter() - start) * 1000))


async def keep_asking_boards(stats: StatsService, stop: float, samples: Samples) -> None:
    """Discord's /leaderboard: a random player every BOARD_EVERY_S, none waiting for another."""
    rng, asked = random.Random(7), []

    async def ask(user_id: int) -> None:
        start = time.perf_counter()
        await stats.leaderboard(GUILD, None, user_id=user_id)
        samples.append((start, (time.perf_counter() - start) * 1000))

    while time.perf_counter() < stop:
        asked.append(asyncio.create_task(ask(1_000_000 + rng.randrange(PLAYERS))))
        await asyncio.sleep(BOARD_EVERY_S)
    await asyncio.gather(*asked)


async def keep_asking_stats(stats: StatsService, stop: float, samples: Samples) -> None:
    """Discord's /lama stats: a random player's every STATS_EVERY_S, none waiting for another."""
    rng, asked = random.Random(11), []

    async def ask(user_id: int) -> None:
        start = time.perf_counter()
        await stats.player(GUILD, user_id)
        samples.append((start, (time.perf_counter() - start) * 1000))

    while time.perf_counter() < stop:
        asked.append(asyncio.create_task(ask(1_000_000 + rng.randrange(PLAYERS))))
        await asyncio.sleep(STATS_EVERY_S)
    await asyncio.gather(*asked)


async def flood(base: str, paths: list[str], seconds: float, clients: int, addresses: str
                ) -> tuple[list[tuple[int, float]], float]:
    """The clients' answers, and when (perf_counter) the flood began."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks.flood_clients", base, str(seconds), str(clients),
        addresses, *paths, stdout=asyncio.subprocess.PIPE, cwd=ROOT)
    assert process.stdout is not None
    line = await process.stdout.readline()
    began = time.perf_counter()
    assert line.strip() == b"go", line
    out = await process.stdout.read()
    assert await process.wait() == 0
    return json.loads(out), began


def within(samples: Samples, began: float, seconds: float) -> list[float]:
    return [ms for at, ms in samples if began <= at < began + seconds]


@dataclass
class Timed:
    """What the players on Discord waited meanwhile: moves, /leaderboard and /lama stats."""

    moves: Samples = field(default_factory=list)
    boards: Samples = field(default_factory=list)
    stats: Samples = field(default_factory=list)

    def during(self, began: float, seconds: float) -> dict:
        return {"move": summary(within(self.moves, began, seconds)),
                "board": summary(within(self.boards, began, seconds)),
                "stats": summary(within(self.stats, began, seconds))}


async def phases(bot: Bot, config: Config, args: argparse.Namespace, timed: Timed) -> dict:
    """The quiet window, then one flood per mix (and one address, after issue 33)."""
    results: dict = {}
    await asyncio.sleep(SETTLE_S)  # the games' first moves and the first boards read
    began = time.perf_counter()
    await asyncio.sleep(args.quiet)
    results["quiet"] = timed.during(began, args.quiet)
    front = Paths(str(GUILD))
    mixes = {"front": [front.leaderboard()], "every": leaderboard_paths(front),
             "players": [front.player(1_000_000 + n) for n in range(PLAYERS)]}
    runs = [(mix, mixes[mix], args.clients, "distinct", args.seconds) for mix in args.mixes]
    if config.limit is not False:
        runs.append(("one address", mixes["front"], args.clients, "one", ONE_ADDRESS_S))
    for name, paths, clients, addresses, seconds in runs:
        await asyncio.sleep(SETTLE_S)
        answers, began = await flood(bot.base, paths, seconds, clients, addresses)
        results[name] = {"web": web_summary(answers, seconds), **timed.during(began, seconds)}
        print(f"  {config.name} {name}: {results[name]['web']['ok_per_s']} pages/s", flush=True)
    return results


async def run_config(config: Config, source: Path, args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "flood.sqlite3"
        shutil.copyfile(source, path)
        bot = await open_bot(config, path)
        try:
            game_ids = await open_games(bot.service, args.move_games)
            await bot.stats.leaderboard(GUILD, None)  # templates and planner warm
            interpreter.tune()  # as bot.py once connected: its collector, languages, GIL
            timed = Timed()
            stop = time.perf_counter() + 3600
            load = [asyncio.create_task(keep_moving(bot.service, g, stop, timed.moves))
                    for g in game_ids]
            load.append(asyncio.create_task(keep_asking_boards(bot.stats, stop, timed.boards)))
            load.append(asyncio.create_task(keep_asking_stats(bot.stats, stop, timed.stats)))
            try:
                return await phases(bot, config, args, timed)
            finally:
                for task in load:
                    task.cancel()
                await asyncio.gather(*load, return_exceptions=True)
        finally:
            await bot.close()
            gc.unfreeze()  # this configuration's bot is garbage now: the next one freezes its own


async def run(args: argparse.Namespace) -> dict:
    source = await template(args.games)
    results = {}
    for name in args.configs:
        print(f"== {name}", flush=True)
        results[name] = await run_config(CONFIGS[name], source, args)
    return {"games": args.games, "clients": args.clients, "flood_s": args.seconds,
            "quiet_s": args.quiet, "move_games": args.move_games,
            "board_every_s": BOARD_EVERY_S, "stats_every_s": STATS_EVERY_S, "configs": results}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--quiet", type=float, default=8.0)
    parser.add_argument("--seconds", type=float, default=12.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--move-games", type=int, default=10)
    parser.add_argument("--configs", type=lambda s: s.split(","), default=["before", "after"])
    parser.add_argument("--mixes", type=lambda s: s.split(","),
                        default=["front", "every", "players"])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    import uvloop

    report = uvloop.run(run(args))
    print_report(report)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
