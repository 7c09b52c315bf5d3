"""How much of the process the site may take (web/limits.py, issue 33), over real HTTP: at most
a few requests of one client address at once (the next a polite 429 page in the reader's
language, never an error, other addresses served meanwhile), and requests begin at even gaps
for everyone together, the others waiting in a line of bounded length (past it, a 503 page).

Requests are held open where a page waits for the bot: the server's profile (its name and
language), which the test answers when it likes. Clients of other addresses bind their own
loopback address (127.0.0.2, …), as distinct readers would come from distinct hosts."""

from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager

import aiohttp
import pytest

from tests.support.web import GUILD, open_world, play_game
from web import GuildProfile, Paths, SiteDeps, WebServer
from web.limits import PER_CLIENT, REFUSAL_DELAY_S, RETRY_AFTER_S, RequestLimits
from web.words import browser_locale

ALICE, BOB = (1, "Alice"), (2, "Bob")


class HeldProfiles:
    """The bot's answer to "what is this server called, which language": held until `go`.
    `asked`: when (the loop's time) each page asked."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self.waiting = 0
        self.go = asyncio.Event()
        self.asked: list[float] = []

    async def __call__(self, guild_id: int) -> GuildProfile:
        self.asked.append(asyncio.get_running_loop().time())
        self.waiting += 1
        try:
            await self.go.wait()
        finally:
            self.waiting -= 1
        return GuildProfile("Llama Lounge", self.locale)

    async def until_waiting(self, count: int) -> None:
        async with asyncio.timeout(10):
            while self.waiting < count:
                await asyncio.sleep(0.01)


@pytest.fixture
async def world(fresh_sqlite):
    w = await open_world(fresh_sqlite)
    await play_game(w, [ALICE, BOB])
    await w.site.update_access(GUILD, public=True)
    yield w
    await w.store.close()


@asynccontextmanager
async def serving(world, limits: RequestLimits):
    """(base URL, the profiles) of the site on a free loopback port."""
    profiles = HeldProfiles("cs")
    server = WebServer(SiteDeps(world.stats, world.site, profiles), host="127.0.0.1", port=0,
                       limits=limits)
    await server.start()
    try:
        yield f"http://127.0.0.1:{server.port}", profiles
    finally:
        profiles.go.set()
        await server.stop()


@pytest.fixture
async def served(world):
    """(base URL, the profiles, the limits) of the site with the bot's limits."""
    limits = RequestLimits()
    async with serving(world, limits) as (base, profiles):
        yield base, profiles, limits


def client(base: str, address: str = "127.0.0.1") -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(local_addr=(address, 0))
    return aiohttp.ClientSession(base, connector=connector)


async def fill_the_limit(http, profiles: HeldProfiles, path: str) -> list[asyncio.Task]:
    """PER_CLIENT requests of one client, each held open inside the site."""
    held = [asyncio.create_task(http.get(path)) for _ in range(PER_CLIENT)]
    await profiles.until_waiting(PER_CLIENT)
    return held


async def statuses(held: list[asyncio.Task]) -> list[int]:
    responses = await asyncio.gather(*held)
    for response in responses:
        await response.read()
    return [response.status for response in responses]


async def test_one_request_too_many_is_a_polite_429_and_the_others_are_served(served):
    base, profiles, limit = served
    board = Paths(str(GUILD)).leaderboard()
    async with client(base) as http:
        profiles.go.set()
        async with http.get(board) as first:  # the site learns the server's language
            assert first.status == 200
        profiles.go.clear()
        held = await fill_the_limit(http, profiles, board)
        asked = time.perf_counter()
        async with http.get(board) as refused:
            text = await refused.text()
            assert time.perf_counter() - asked >= REFUSAL_DELAY_S  # a script asking again
            assert refused.status == 429
            assert refused.headers["Retry-After"] == str(RETRY_AFTER_S)
            assert refused.headers["Cache-Control"] == "no-store"
            assert "Příliš mnoho požadavků najednou" in text and 'lang="cs"' in text
        profiles.go.set()
        assert await statuses(held) == [200] * PER_CLIENT
        async with http.get(board) as again:
            assert again.status == 200
    assert limit.active("127.0.0.1") == 0


async def test_other_addresses_are_served_while_one_is_at_its_limit(served):
    base, profiles, limit = served
    board = Paths(str(GUILD)).leaderboard()
    async with client(base) as crowd, client(base, "127.0.0.2") as reader:
        held = await fill_the_limit(crowd, profiles, board)
        async with crowd.get("/") as refused:
            assert refused.status == 429
        async with reader.get("/") as home:
            assert home.status == 200
        waiting = asyncio.create_task(reader.get(board))
        await profiles.until_waiting(PER_CLIENT + 1)  # in, though its neighbour is full
        assert limit.active("127.0.0.2") == 1
        profiles.go.set()
        assert await statuses([waiting, *held]) == [200] * (PER_CLIENT + 1)


async def test_the_429_page_speaks_the_browsers_language_when_the_server_is_unknown(served):
    base, profiles, _ = served
    async with client(base) as http:
        held = await fill_the_limit(http, profiles, Paths(str(GUILD)).leaderboard())
        for header, words in (("es-ES,es;q=0.9,en;q=0.5", "Demasiadas solicitudes a la vez"),
                              ("fr-FR, de;q=0.8", "Too many requests at once"),
                              ("en;q=0.3, cs;q=0.7", "Příliš mnoho požadavků najednou")):
            async with http.get("/", headers={"Accept-Language": header}) as refused:
                assert refused.status == 429 and words in await refused.text(), header
        profiles.go.set()
        await statuses(held)


async def test_the_activitys_requests_are_not_refused_per_address(served):
    """They come through Discord's proxy, one address for every player (web/limits.py)."""
    base, profiles, limits = served
    async with client(base) as http:
        held = await fill_the_limit(http, profiles, Paths(str(GUILD)).leaderboard())
        async with http.get("/activity/nothing-here") as activity:
            assert activity.status == 404  # no Activity on this site: but not refused
        async with http.get("/nothing-here") as page:
            assert page.status == 429
        assert limits.active("127.0.0.1") == PER_CLIENT  # the Activity's was not counted
        profiles.go.set()
        await statuses(held)


async def test_requests_begin_at_even_gaps(world):
    """Two pages a second: four requests asked at once begin half a second apart."""
    limits = RequestLimits(pages_per_s=2)
    board = Paths(str(GUILD)).leaderboard()
    async with serving(world, limits) as (base, profiles), client(base) as http:
        profiles.go.set()  # nothing held: only the gaps keep them apart
        sent = asyncio.get_running_loop().time()
        assert await statuses([asyncio.create_task(http.get(board)) for _ in range(4)]
                              ) == [200] * 4
    # Measured from when they were sent, not from the first page's ask: the first page may
    # reach its ask late (its first read of the store) and shorten the span without any
    # request beginning early (a fresh clone's suite once saw 0.40 s for the first gap).
    asked = sorted(profiles.asked)
    assert len(asked) == 4, asked
    for turn, when in enumerate(asked):
        assert when - sent >= turn * 0.5 - 0.02, (turn, when - sent)


async def test_a_line_too_long_is_a_503_in_the_readers_language(world):
    """A line of two that moves once in twenty seconds: asked while two wait, a request is
    refused at once, in the language of the board's server (learnt from its page)."""
    limits = RequestLimits(pages_per_s=0.05, max_waiting=2, refusal_delay_s=0)
    board = Paths(str(GUILD)).leaderboard()
    async with serving(world, limits) as (base, profiles), client(base) as http:
        profiles.go.set()
        async with http.get(board) as first:  # begins at once; the next waits 20 s
            assert first.status == 200
        waiting = [asyncio.create_task(http.get(board)) for _ in range(2)]
        async with asyncio.timeout(10):
            while limits.waiting < 2:
                await asyncio.sleep(0.01)
        async with http.get("/", headers={"Accept-Language": "es"}) as refused:
            text = await refused.text()
            assert refused.status == 503 and refused.headers["Retry-After"] == str(RETRY_AFTER_S)
            assert "Mucha demanda en este momento" in text
        async with http.get(board) as refused:  # the board's server speaks Czech
            assert refused.status == 503 and "Právě teď je tu plno" in await refused.text()
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)


@pytest.mark.parametrize(("header", "locale"), [
    ("", "en"), ("cs", "cs"), ("es-419", "es"), ("fr, es;q=0.5", "es"),
    ("es;q=0.2, cs;q=0.8", "cs"), ("cs;q=0, es", "es"), ("cs;q=x, es", "es"), ("*", "en"),
])
def test_the_browsers_language_is_the_first_the_bot_speaks_by_weight(header, locale):
    assert browser_locale(header) == locale
