"""How much of the bot's process the web site may take (issue 33): a few requests of one client
address at once, and a steady number of new requests a second for everyone together.

The pages run on the bot's event loop, and a page address is all a flood needs.
- **Per client address**: at most `PER_CLIENT` requests in progress at once; the next is a
  polite 429 page with Retry-After. One client cannot hold every read connection
  (store/sqlite_reads.py). A browser opens at most 6 connections to a site, so one reader
  never meets the limit.
- **`PAGES_PER_S` for everyone**: 50 clients asking as fast as they are answered had the loop
  busy with pages all the time, and a move waiting for its commit waited behind them, turn
  after turn (p99 5.5 ms quiet, 50-340 ms under the flood, even with every page kept). Now
  requests begin at most `PAGES_PER_S` a second, one after another at even gaps; the others
  wait in line (nothing runs for them meanwhile), up to `MAX_WAITING`, past which a 503 page.
  At ~1 ms of the loop a page on this project's machine, that is about a third of it; a
  request that finds no line begins at once.
- **Pages read anew take turns at the store**: a player's page is `/lama stats`' own reads
  and the player's head-to-head against each opponent (at 100,000 games a few ms to ~20 ms
  of a read connection for most players, some hundreds of ms for one of 30,000 games), and
  the recent games and a replay not yet kept read too. Fifty clients from fifty
  addresses pass the limit per address, and asking for those they held every read
  connection (four): `/lama stats` and `/leaderboard` in Discord waited behind the crowd.
  Such a page (`reads_in_turn`) reads while it holds one of `READS_AT_ONCE` turns; the others
  wait in a line of their own, up to `MAX_READS_WAITING` (past it, the 503 page), and one
  whose client left meanwhile reads nothing. The turns are as many as the store's reader
  processes (store/background.py: half the machine's cores, at least one and at most two),
  and such a page's reads are background reads: on SQLite they run only on a core nobody
  else wants, so they never keep a move's commit waiting for one (move p99 4x quiet with two
  turns of niced threads, 2.5-3x with one, 1.1-1.6x in reader processes with the pages
  made in slices, web/context.py). Such a page, or a leaderboard page, not answered within
  `READ_DEADLINE_S` gets the 503 page (`in_time`): where other programs keep every core
  busy, its reads may never run. A leaderboard page takes a turn only to make a board
  nobody kept (`read_turn`, hosting/board_cache.py), in the same line (past
  `MAX_READS_WAITING`, the 503 page): a kept board is served at once, and a flood's first
  second over every board no longer makes all 144 at once on every core.
- **Refusals cost little**: a refusal's page is made once per language and kept, and it is
  answered after `REFUSAL_DELAY_S`: a script that asks again at once asks a few times a
  second per connection, not as fast as the loop can refuse.

The client address is `request.remote`, the peer of the connection: the site trusts no
forwarding header (a client could write any). Behind a reverse proxy every request comes from
the proxy's address, so they all share one limit there; the proxy should hold a limit per
client of its own (docs/web.md).

A refusal speaks the language of the server the address names, if this site served one of
its pages lately (no read of the store for it), else the reader's browser language
(Accept-Language), else English.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from functools import wraps

from aiohttp import web
from aiohttp.typedefs import Handler

from store.background import BACKGROUND_READERS, background_reads

from .context import LOCALE, html_response, render_text
from .words import browser_locale

PER_CLIENT = 6
MAX_READS_WAITING = 100  # one or two seconds of players' pages at 100,000 games
# A page read anew not answered by then is answered "busy right now": its reads wait for a core
# nobody else wants (store/read_process.py), and where other programs keep every core busy
# that may be never.
READ_DEADLINE_S = 10.0
PAGES_PER_S = 300
MAX_WAITING = 500
RETRY_AFTER_S = 2
REFUSAL_DELAY_S = 0.5
LOCALES_KEPT = 1024  # page keys whose server's language is remembered for refusals
# The Activity's requests are not counted per address: every player's comes through Discord's
# proxy (one address for all of them), and its live socket stays open for the whole game. Its
# API answers signed sessions only (web/activity/); the steady pace still applies to it.
PER_CLIENT_EXEMPT = "/activity/"


READS_AT_ONCE = BACKGROUND_READERS  # a turn reads on one of them


class ReadLineFull(Exception):
    """The line for the read turns is full (`MAX_READS_WAITING`)."""


class RequestLimits:
    """The site's first middleware (`build_app`). `per_client` None: no limit per address;
    `pages_per_s` None: every request begins at once (both as before issue 33, for
    benchmarks); `refusal_delay_s` 0 for tests that count refusals. `reads_at_once`: how
    many pages read anew may read at once (`reads_in_turn`); None: any number;
    `read_deadline_s`: how long such a page may take before it is answered "busy"."""

    def __init__(self, per_client: int | None = PER_CLIENT, *,
                 pages_per_s: float | None = PAGES_PER_S, max_waiting: int = MAX_WAITING,
                 refusal_delay_s: float = REFUSAL_DELAY_S,
                 reads_at_once: int | None = READS_AT_ONCE,
                 max_reads_waiting: int = MAX_READS_WAITING,
                 read_deadline_s: float = READ_DEADLINE_S) -> None:
        self.per_client = per_client
        self._read_turns = None if reads_at_once is None else asyncio.Semaphore(reads_at_once)
        self._reads_waiting = 0
        self.max_reads_waiting = max_reads_waiting
        self.read_deadline_s = read_deadline_s
        self.max_waiting = max_waiting
        self._gap_s = 0.0 if pages_per_s is None else 1 / pages_per_s
        self._refusal_delay_s = refusal_delay_s
        self._active: dict[str, int] = {}
        self._locales: OrderedDict[str, str] = OrderedDict()  # page key -> its language
        self._refusals: dict[tuple[int, str], str] = {}  # (status, language) -> the page
        self._line: deque[asyncio.Future[None]] = deque()
        self._next_start = 0.0  # the loop's time at which the next request may begin
        self._gate: asyncio.TimerHandle | None = None

    def active(self, client: str) -> int:
        """How many of the client's requests are in progress now (waiting ones included)."""
        return self._active.get(client, 0)

    @property
    def waiting(self) -> int:
        return len(self._line)

    @property
    def reads_waiting(self) -> int:
        """Pages read anew, and boards nobody kept, waiting for a read turn."""
        return self._reads_waiting

    def _read_line_full(self) -> bool:
        turns = self._read_turns
        return (turns is not None and turns.locked()
                and self._reads_waiting >= self.max_reads_waiting)

    async def busy(self, request: web.Request) -> web.Response:
        """The "busy right now" page (503, Retry-After): the read line is full."""
        return await self._refused(request, 503)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        counted = not request.path.startswith(PER_CLIENT_EXEMPT)
        client = request.remote or ""
        active = self._active.get(client, 0)
        if counted and self.per_client is not None and active >= self.per_client:
            return await self._refused(request, 429)
        if len(self._line) >= self.max_waiting:
            return await self._refused(request, 503)
        if counted:
            self._active[client] = active + 1
        try:
            await self._turn()
            return await handler(request)
        finally:
            if counted:
                self._done(client)
            self._learn_locale(request)

    def reads_in_turn(self, handler: Handler) -> Handler:
        """`handler`, a page read anew, run while it holds one of the read turns, and
        answered "busy" past the line or the deadline."""
        @wraps(handler)
        async def in_turn(request: web.Request) -> web.StreamResponse:
            try:
                async with self.read_turn():
                    if request.transport is None or request.transport.is_closing():
                        return web.Response(status=408)  # its client left while it waited
                    turned = self._read_turns is not None  # else in the foreground, all at once
                    with background_reads() if turned else nullcontext():
                        return await handler(request)
            except ReadLineFull:
                return await self.busy(request)
        return self.in_time(in_turn)

    def in_time(self, handler: Handler) -> Handler:
        """`handler`, answered "busy right now" if not done within `read_deadline_s`: a
        page whose reads wait for a core nobody else wants, or a board nobody kept that
        waits for a read turn. A board's making goes on for the next reader."""
        @wraps(handler)
        async def timed(request: web.Request) -> web.StreamResponse:
            deadline = asyncio.timeout(self.read_deadline_s)
            try:
                async with deadline:
                    return await handler(request)
            except TimeoutError:
                if not deadline.expired():
                    raise
                return await self.busy(request)
        return timed

    @asynccontextmanager
    async def read_turn(self) -> AsyncIterator[None]:
        """One of the read turns, held for the block (waited for in their line): for a page
        read anew, and for a board that was not kept, which the site's leaderboard pages
        make only in turn (a flood's first second over every board made 144 at once, each
        window's totals 100-200 ms of a read connection: every core, and the moves waited).
        `ReadLineFull` when the line is full: the page answers with the 503 page. The
        turn leaves the reads where they are: a page read anew reads in the background
        (`reads_in_turn`), a board in the foreground (Discord's `/leaderboard` may wait for
        the same board)."""
        turns = self._read_turns
        if turns is None:
            yield
            return
        if self._read_line_full():
            raise ReadLineFull
        self._reads_waiting += 1
        try:
            await turns.acquire()
        finally:
            self._reads_waiting -= 1
        try:
            yield
        finally:
            turns.release()

    async def _turn(self) -> None:
        """Return when this request may begin: at once if nobody waits and the gap since
        the last one began has passed, else when its turn in line comes."""
        if not self._gap_s:
            return
        loop = asyncio.get_running_loop()
        if not self._line and loop.time() >= self._next_start:
            self._next_start = loop.time() + self._gap_s
            return
        future = loop.create_future()
        self._line.append(future)
        if self._gate is None:
            self._gate = loop.call_at(self._next_start, self._open_gate)
        try:
            await future
        except asyncio.CancelledError:
            if future in self._line:
                self._line.remove(future)
            raise

    def _open_gate(self) -> None:
        """The first in line begins; the gate opens again a gap later while others wait."""
        loop = asyncio.get_running_loop()
        self._gate = None
        while self._line:
            future = self._line.popleft()
            if not future.done():
                future.set_result(None)
                self._next_start = loop.time() + self._gap_s
                break
        if self._line:
            self._gate = loop.call_at(self._next_start, self._open_gate)

    def _done(self, client: str) -> None:
        left = self._active[client] - 1
        if left:
            self._active[client] = left
        else:
            del self._active[client]

    def _learn_locale(self, request: web.Request) -> None:
        key = request.match_info.get("key")
        if key is not None and LOCALE in request:  # a page of a server was served
            self._locales[key] = request[LOCALE]
            self._locales.move_to_end(key)
            if len(self._locales) > LOCALES_KEPT:
                self._locales.popitem(last=False)

    async def _refused(self, request: web.Request, status: int) -> web.Response:
        key = request.match_info.get("key")
        known = self._locales.get(key) if key is not None else None
        locale = known or browser_locale(request.headers.get("Accept-Language", ""))
        page = self._refusals.get((status, locale))
        if page is None:
            request[LOCALE] = locale
            page = self._refusals[status, locale] = render_text(
                request, "error.html", code=status)
        if self._refusal_delay_s:
            await asyncio.sleep(self._refusal_delay_s)
        response = html_response(page, status)
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
        return response


LIMITS = web.AppKey("limits", RequestLimits)
