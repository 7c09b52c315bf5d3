"""python -m benchmarks.reminders: how late a turn's half-time reminder reaches its player
(issue 34, point 2: target <= 50 ms; it used to come a steady ~0.3 s late, the flush queue's
coalescing delay).

The real bot (bot.py, in this process, the production render delay of 0.3 s) against the
loopback Discord: GAMES games of two humans with 10-second turns, started 0.37 s apart, and
nobody moves: each turn has its reminder at 5 s, then times out, and the next one begins.
Per reminder: from its stored due time (the turn's end, which the reminder carries, minus
the half it leaves) to the moment its DM reaches Discord. Prints p50 / p90 / max; writes
benchmarks/reminders.json.

Options: --games N (default 10), --seconds S (default 25).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot import LamaBot
from hosting import SystemClock
from hosting.views import NoticeKind
from loopback import FakeDiscord
from loopback.hook import API_BASE_ENV, discord_env_for
from loopback.running import BOT_TOKEN, run_bot
from settings import Settings

from .bot_report import percentile

OUT = Path(__file__).with_name("reminders.json")
TURN = 10  # seconds: the shortest turn a game allows
POST = "POST /channels/{channel_id}/messages"
# Games start a moment apart, as players start them: reminders falling due in the very same
# instant would queue for the REST budget's pace (30 calls/s), which is not lateness of the
# reminder itself (with every game started at once, 10 games: p50 0.4 s).
STAGGER = 0.37


async def open_games(fake: FakeDiscord, bot: LamaBot, games: int) -> None:
    for n in range(games):
        channel = fake.channel(f"lama-{n + 1}")
        host, guest = fake.add_users(2, prefix=f"g{n + 1}p")
        await fake.slash(host, channel, "lama new", turn_timeout=TURN, target=200)
        await fake.slash(guest, channel, "lama join")
        await fake.slash(host, channel, "lama start")
        await asyncio.sleep(STAGGER)


async def measure(games: int, seconds: float) -> list[float]:
    """Seconds each reminder DM reached Discord after its due time."""
    due: dict[int, list[float]] = {}  # user -> the reminders' due times (Unix s), in order
    told: list[float] = []  # seconds from due time to the service telling it (hosting's part)
    offset = time.time() - time.monotonic()  # the fake's clock is monotonic

    async def heard(update) -> None:
        for notice in update.notices:
            if notice.kind is NoticeKind.REMINDER and notice.ends_at is not None:
                due.setdefault(notice.user_id, []).append(notice.ends_at - (TURN - TURN / 2))
                told.append(time.time() - due[notice.user_id][-1])

    with tempfile.TemporaryDirectory() as workdir:
        names = tuple(f"lama-{n + 1}" for n in range(games))
        async with FakeDiscord(members=(), channels=names) as fake:
            settings = Settings(
                token=BOT_TOKEN, database_path=str(Path(workdir) / "bot.db"),
                discord_api_base_url=discord_env_for(fake.base_url)[API_BASE_ENV],
                discord_gateway_url=fake.ws_url,
            )
            bot = LamaBot(settings, clock=SystemClock(), guild_ready_timeout=0.05)
            async with run_bot(fake, bot, sync_commands=False):
                bot.service.add_listener(heard)
                await open_games(fake, bot, games)
                await asyncio.sleep(seconds)  # the turns run out on their own: real time
            channels = {c.id: user for user, c in fake.dm_channels.items()}
            arrived: dict[int, list[float]] = {}
            for call in fake.rest_calls(POST):
                user = channels.get(int(call.params["channel_id"]))
                if user is not None and "still your turn" in str((call.body or {}).get("content")):
                    arrived.setdefault(user, []).append(call.time + offset)
    if told:
        print("told by the service (hosting's part), p50 / max ms:",
              round(statistics.median(told) * 1000, 1), round(max(told) * 1000, 1))
    return [sent - due_at for user, times in arrived.items()
            for sent, due_at in zip(times, due.get(user, []), strict=False)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=25.0)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    late = asyncio.run(measure(args.games, args.seconds))
    if not late:
        print("no reminders measured", file=sys.stderr)
        return 1
    report = {"games": args.games, "reminders": len(late),
              "late_p50_ms": round(statistics.median(late) * 1000, 1),
              "late_p90_ms": round(percentile(late, 90) * 1000, 1),
              "late_max_ms": round(max(late) * 1000, 1), "target_ms": 50}
    print(json.dumps(report))
    OUT.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
