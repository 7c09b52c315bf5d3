"""The Activity's live channel under load: `python -m benchmarks.activity` (issue 37).

    python -m benchmarks.activity [--games 30] [--clients 100] [--seconds 20] [--rate 2]

The Activity's backend as the bot runs it (web.WebServer with the Activity, over a
GameService on SQLite, on one event loop) and, in a second process, `--clients` WebSocket
clients (aiohttp) spread over `--games` running games: two players per game, the others
watching. Every game makes `--rate` moves a second (a human's move through the service, as
the Activity's or a slash command's request makes it). Each commit's time is taken by a
listener of the service; each client notes when the first state showing that move arrives
(time.monotonic, the same clock in both processes). Commit-to-frame latency = arrival -
commit, over every (client, move). Memory per connection: the server process's resident set
and its Python heap (tracemalloc, a separate phase) with every client connected and idle,
against none. Writes benchmarks/activity.json.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import aiohttp
import orjson

from hosting import GameOptions, GameService, Preferences, Presence, Status, SystemClock
from hosting.site import SiteService
from hosting.stats import StatsService
from lama.actions import Draw, Play
from lama.ai import get_policy
from store import Store
from web import GuildProfile, SiteDeps, WebServer
from web.activity import ActivityDeps, Credentials
from web.activity.sessions import LIFETIME_S, Session, SessionKeys

OUT = Path(__file__).with_name("activity.json")
SECRET = "benchmark-secret"
GUILD = 77
FIRST_USER = 10_000
SETTLE_S = 1.0  # after the last move, for the last frames to arrive


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def rss_kb() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 // 1024


# ------------------------------------------------------------------ the clients' process

async def client(url: str, arrivals: list[tuple[int, int, float]], ready: asyncio.Event,
                 http: aiohttp.ClientSession) -> None:
    """One page: the first state showing each move of its game, and when it came."""
    seen: set[tuple[int, int]] = set()
    async with http.ws_connect(url, max_msg_size=0) as ws:
        async for message in ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            now = time.monotonic()
            ready.set()  # connected, its first state in
            data = orjson.loads(message.data)
            view = data.get("view")
            if data["type"] != "state" or not view or view["game_id"] is None:
                continue
            key = (view["game_id"], view["moves"])
            if key not in seen:
                seen.add(key)
                arrivals.append((*key, now))


async def run_clients(urls: list[str], seconds: float) -> list[list[tuple[int, int, float]]]:
    arrivals: list[list[tuple[int, int, float]]] = [[] for _ in urls]
    async with aiohttp.ClientSession() as http:
        readies = [asyncio.Event() for _ in urls]
        tasks = [asyncio.create_task(client(url, arrivals[i], readies[i], http))
                 for i, url in enumerate(urls)]
        await asyncio.gather(*(r.wait() for r in readies))
        print("ready", flush=True)
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return arrivals


def clients_main(seconds: float) -> int:
    urls = json.loads(sys.stdin.readline())
    arrivals = asyncio.run(run_clients(urls, seconds))
    print(json.dumps(arrivals), flush=True)
    return 0


# ------------------------------------------------------------------ the server's process

class Commits:
    """When each move was committed: a listener of the service, before the Activity's."""

    def __init__(self) -> None:
        self.at: dict[tuple[int, int], float] = {}

    async def on_update(self, update: Any) -> None:
        view = update.view
        if update.seqs:
            self.at[(view.game_id, view.move_count)] = time.monotonic()


async def open_games(service: GameService, games: int) -> list[tuple[int, int, int]]:
    """`games` running two-player games, one per channel: (game, host, guest)."""
    options = GameOptions(variant="classic", target=200, turn_timeout=3600, ai_delay=0)
    opened = []
    for n in range(games):
        host, guest = FIRST_USER + 2 * n, FIRST_USER + 2 * n + 1
        game_id = (await service.open_lobby(GUILD, 1000 + n, host, f"P{host}",
                                            options)).view.game_id
        await service.join(game_id, guest, f"P{guest}")
        await service.start(game_id, host)
        opened.append((game_id, host, guest))
    return opened


async def move_once(service: GameService, game: tuple[int, int, int],
                    rng: random.Random) -> None:
    game_id = game[0]
    view = service.view(game_id)
    if view.status is not Status.RUNNING:
        return
    user = view.seats[view.current_seat].user_id
    action = get_policy("normal").choose(service.observation(game_id, user), rng)
    if isinstance(action, Play):
        await service.play(game_id, user, action.card)
    elif isinstance(action, Draw):
        await service.draw(game_id, user)
    else:
        await service.quit_round(game_id, user)


async def play(service: GameService, games: list[tuple[int, int, int]], rate: float,
               seconds: float) -> int:
    """Every game moves `rate` times a second, the games' moves spread over each period."""
    rng, moves = random.Random(3), 0
    loop = asyncio.get_running_loop()
    start = loop.time()
    period = 1.0 / rate
    tick = 0
    while loop.time() - start < seconds:
        for i, game in enumerate(games):
            due = start + tick * period + i * period / len(games)
            await asyncio.sleep(max(0.0, due - loop.time()))
            await move_once(service, game, rng)
            moves += 1
        tick += 1
    return moves


def client_urls(base: str, games: list[tuple[int, int, int]], clients: int) -> list[str]:
    keys, urls = SessionKeys(SECRET), []
    for n in range(clients):
        _, host, guest = games[n % len(games)]
        player = n < 2 * len(games)
        user = (host if n < len(games) else guest) if player else FIRST_USER * 10 + n
        session = Session(user, f"i-{n}", 1000 + (n % len(games)), GUILD, f"P{user}", "en",
                          time.time() + LIFETIME_S)
        urls.append(f"{base}/activity/api/live?session={keys.sign(session)}&instance_id=i-{n}")
    return urls


async def spawn_clients(urls: list[str], seconds: float) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks.activity", "--client", "--seconds", str(seconds),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write((json.dumps(urls) + "\n").encode())
    await process.stdin.drain()
    process.stdin.close()
    assert (await process.stdout.readline()).strip() == b"ready"
    return process


class Memory:
    """The server's memory before the clients connect, and with all of them connected and
    idle (each has its first state: the server holds all it will hold for it)."""

    def __init__(self) -> None:
        gc.collect()
        self.rss = rss_kb()
        tracemalloc.start()
        self.heap = tracemalloc.get_traced_memory()[0]

    def per_connection(self, connections: int) -> dict[str, float]:
        gc.collect()
        heap, rss = tracemalloc.get_traced_memory()[0], rss_kb()
        tracemalloc.stop()
        return {"rss_kb_per_connection": round((rss - self.rss) / connections, 1),
                "heap_kb_per_connection": round((heap - self.heap) / 1024 / connections, 1)}


async def run(games_n: int, clients: int, seconds: float, rate: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        clock = SystemClock()
        preferences = Preferences(store, clock)
        service = GameService(store, clock, preferences=preferences)
        commits = Commits()
        service.add_listener(commits.on_update)  # before the Activity's hub
        credentials = Credentials("http://127.0.0.1:9/api/v10", lambda: 1, SECRET, "token")

        async def show_lobby(update: Any) -> None:
            return None

        async def profile(guild_id: int) -> GuildProfile:
            return GuildProfile(None, "en")

        activity = ActivityDeps(service, preferences, credentials, show_lobby,
                                lambda channel_id: None, clock, Presence(clock))
        site = SiteDeps(StatsService(store, clock), SiteService(store, clock), profile)
        server = WebServer(site, host="127.0.0.1", port=0, activity=activity)
        await server.start()
        try:
            games = await open_games(service, games_n)
            base = f"http://127.0.0.1:{server.port}"
            urls = client_urls(base, games, clients)
            memory = Memory()
            process = await spawn_clients(urls, seconds + SETTLE_S)
            per_connection = memory.per_connection(len(urls))
            commits.at.clear()  # the moves measured: those made from now on
            moves = await play(service, games, rate, seconds)
            out, _ = await process.communicate()
            arrivals = json.loads(out.decode().strip().splitlines()[-1])
        finally:
            await server.stop()
            await store.close()
    return report(commits, arrivals, moves, games_n, clients, seconds, rate, per_connection)


def report(commits: Commits, arrivals: list, moves: int, games: int, clients: int,
           seconds: float, rate: float, memory: dict[str, float]) -> dict[str, Any]:
    latencies = [(at - commits.at[(g, s)]) * 1000 for per_client in arrivals
                 for g, s, at in per_client if (g, s) in commits.at]
    frames = sum(len(c) for c in arrivals)
    return {"games": games, "clients": clients, "seconds": seconds, "moves_per_game_s": rate,
            "moves": moves, "frames": frames,
            "latency_ms": {"p50": round(statistics.median(latencies), 2),
                           "p99": round(percentile(latencies, 0.99), 2),
                           "max": round(max(latencies), 2)},
            "memory": memory}


def print_report(result: dict[str, Any]) -> None:
    lat, mem = result["latency_ms"], result["memory"]
    print(f"{result['clients']} clients on {result['games']} games, "
          f"{result['moves']} moves in {result['seconds']} s, {result['frames']} frames")
    print(f"commit to frame: p50 {lat['p50']} ms, p99 {lat['p99']} ms, max {lat['max']} ms")
    print(f"per connection: {mem['rss_kb_per_connection']} KB resident, "
          f"{mem['heap_kb_per_connection']} KB Python heap")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=2.0, help="moves per game per second")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.client:
        return clients_main(args.seconds)
    result = asyncio.run(run(args.games, args.clients, args.seconds, args.rate))
    print_report(result)
    OUT.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
