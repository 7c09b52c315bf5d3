"""The pages that read the store anew take a share of its read connections, not all of them.

A player's page is `/lama stats`' own reads (~130 ms of a read connection at 100,000 games), and
the recent games and a replay not yet kept read too. Fifty clients asking for those, each
from its own address (so the per-address limit never refuses one, web/limits.py), held every
read connection (four, store/sqlite_reads.py; PostgreSQL's read pool of four), and `/lama
stats` or `/leaderboard` in Discord waited behind the crowd. So such a page reads in turn:
at most `AT_ONCE` of them at once, and the others wait in line with nothing read for them;
the rest of the connections stay for Discord's readers and the kept boards. The leaderboard
pages are not counted: they come from boards kept for everyone (hosting/board_cache.py),
made once whoever asks.
"""

from __future__ import annotations

import asyncio
import sys
from functools import wraps

from aiohttp import web
from aiohttp.typedefs import Handler

AT_ONCE = 2  # of the store's four read connections
READ_TURNS = web.AppKey("read_turns", asyncio.Semaphore)


def turns(at_once: int | None) -> asyncio.Semaphore:
    """The site's read turns; None: as many as ask (before issue 33, for benchmarks)."""
    return asyncio.Semaphore(sys.maxsize if at_once is None else at_once)


def reads_in_turn(handler: Handler) -> Handler:
    """`handler`, run while it holds one of the site's read turns."""
    @wraps(handler)
    async def in_turn(request: web.Request) -> web.StreamResponse:
        async with request.app[READ_TURNS]:
            return await handler(request)
    return in_turn
