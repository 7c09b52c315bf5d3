"""The pages read anew take turns at the store's read connections (web/limits.py
`reads_in_turn`): a crowd asking for players' pages, the recent games or replays leaves read
connections to Discord's `/lama stats` and `/leaderboard` (issue 33: reads that never queue
behind a crowd). The crowd asks from one address here, within its limit of six."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import aiohttp
import pytest
import pytest_asyncio

from store import LeaderboardSort
from store.background import in_background
from tests.support.web import GUILD, public_world, served
from web import pages
from web.limits import READS_AT_ONCE, RequestLimits

pytestmark = pytest.mark.asyncio(loop_scope="module")
HANG_S = 10.0


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory):
    w = await public_world(tmp_path_factory.mktemp("read_turns") / "lama.sqlite3")
    yield w
    await w.store.close()


@asynccontextmanager
async def site_of(world, limits: RequestLimits | None = None):
    async with served(world, limits) as server, \
            aiohttp.ClientSession(f"http://127.0.0.1:{server.port}") as http:
        yield http, server


class HeldReads:
    """Every call of `owner.name` first holds a read open until `open`: the page's own read,
    made slow (in its read turn, on one of the store's background readers)."""

    def __init__(self, world, owner, name: str, monkeypatch) -> None:
        self.reading = 0
        self._opened = asyncio.Event()
        real = getattr(owner, name)

        async def held(*args, **kwargs):
            self.reading += 1
            async with world.store.db.read() as tx:
                await tx.fetchone("SELECT 1")
                await self._opened.wait()
            return await real(*args, **kwargs)

        monkeypatch.setattr(owner, name, held)

    def open(self) -> None:
        self._opened.set()

    async def settled(self, most: int) -> None:
        """Until `most` are reading, or a moment after the turns' worth began (those that
        could begin, began: each is a few turns of the loop from its request)."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(HANG_S):
            while self.reading < READS_AT_ONCE:
                await asyncio.sleep(0.01)
        until = loop.time() + 0.5
        while self.reading < most and loop.time() < until:
            await asyncio.sleep(0.01)


@asynccontextmanager
async def opened_at_the_end(held: HeldReads):
    """The held reads let go however the test ends: no page hangs past it."""
    try:
        yield
    finally:
        held.open()


async def status(http, path: str) -> int:
    async with http.get(path) as response:
        await response.read()
        return response.status


def page_reads(world, page: str):
    """A page read anew, and the store read it makes."""
    return {
        "player": (world.paths.player(1), world.store.stats, "player_stats"),
        "recent games": (world.paths.games(), world.store.site, "count_finished"),
        "replay": (world.paths.replay(world.game, 1), world.store.games, "list_moves"),
    }[page]


@pytest.mark.parametrize("page", ["player", "recent games", "replay"])
async def test_a_crowd_of_pages_read_anew_leaves_read_connections_to_discord(world, page,
                                                                             monkeypatch):
    path, owner, name = page_reads(world, page)
    connections = world.store.db.read_connections
    assert connections > READS_AT_ONCE
    held = HeldReads(world, owner, name, monkeypatch)
    async with site_of(world) as (http, _), opened_at_the_end(held):
        # as many pages as there are read connections
        crowd = [asyncio.create_task(status(http, path)) for _ in range(connections)]
        await held.settled(connections)
        assert held.reading == READS_AT_ONCE
        # Discord's reader finds a connection while the crowd's pages wait their turn
        await asyncio.wait_for(world.store.seasons.seasons(GUILD), HANG_S)
        held.open()
        assert await asyncio.gather(*crowd) == [200] * connections


async def test_a_page_whose_reader_left_while_it_waited_reads_nothing(world, monkeypatch):
    limits = RequestLimits()
    held = HeldReads(world, world.store.stats, "player_stats", monkeypatch)
    async with site_of(world, limits) as (http, server), opened_at_the_end(held):
        crowd = [asyncio.create_task(status(http, world.paths.player(1)))
                 for _ in range(READS_AT_ONCE)]
        await held.settled(READS_AT_ONCE)
        leaver = aiohttp.ClientSession(f"http://127.0.0.1:{server.port}")
        left = asyncio.create_task(status(leaver, world.paths.player(2)))
        async with asyncio.timeout(HANG_S):  # its page waits for a turn
            while limits.reads_waiting < 1:
                await asyncio.sleep(0.01)
        left.cancel()
        await leaver.close()  # the reader gives up: its connection closed
        transports = server._runner.server._connections  # type: ignore[union-attr]
        async with asyncio.timeout(HANG_S):  # the site has seen it go
            while not any(t.is_closing() for t in transports.values()):
                await asyncio.sleep(0.01)
        held.open()
        assert await asyncio.gather(*crowd) == [200] * READS_AT_ONCE
        async with asyncio.timeout(HANG_S):  # the turn freed reaches the page that waited
            while limits.reads_waiting:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
    assert held.reading == READS_AT_ONCE


LATE_READS = {
    "a page read anew": lambda world: world.paths.player(1),
    "a board nobody kept": lambda world: world.paths.leaderboard(LeaderboardSort.TOKENS),
}


@pytest.mark.parametrize("late", sorted(LATE_READS))
async def test_a_read_past_the_turns_line_is_told_the_site_is_busy(world, late, monkeypatch):
    limits = RequestLimits(reads_at_once=1, max_reads_waiting=1, refusal_delay_s=0)
    held = HeldReads(world, world.store.stats, "player_stats", monkeypatch)
    async with site_of(world, limits) as (http, _), opened_at_the_end(held):
        reading = asyncio.create_task(status(http, world.paths.player(1)))
        waiting = asyncio.create_task(status(http, world.paths.player(2)))
        async with asyncio.timeout(HANG_S):
            while limits.reads_waiting < 1:
                await asyncio.sleep(0.01)
        async with http.get(LATE_READS[late](world)) as refused:
            assert refused.status == 503 and refused.headers["Retry-After"]
            assert "Busy" in await refused.text()
        held.open()
        assert [await reading, await waiting] == [200, 200]
    assert held.reading == 2


async def test_a_page_whose_reads_outlast_the_deadline_is_told_the_site_is_busy(
        world, monkeypatch):
    """Its reads wait for a core nobody else wants, which other programs may never leave:
    the reader hears "busy right now" in time, and the turn it held goes to the next page."""
    limits = RequestLimits(refusal_delay_s=0, read_deadline_s=0.2)
    held = HeldReads(world, world.store.stats, "player_stats", monkeypatch)
    async with site_of(world, limits) as (http, _), opened_at_the_end(held):
        async with http.get(world.paths.player(1)) as refused:
            assert refused.status == 503 and refused.headers["Retry-After"]
            assert "Busy" in await refused.text()
        held.open()
        limits.read_deadline_s = HANG_S  # the next page may take a loaded machine's time
        assert await status(http, world.paths.player(1)) == 200


async def test_a_board_page_that_outlasts_the_deadline_is_told_busy_and_made_for_the_next(
        world, monkeypatch):
    """A page nobody kept, made slowly here (its board is kept: the deadline can only pass
    while the page is made): its reader hears "busy right now" in time, and the page goes on
    being made (shared, shielded) for whoever asks next."""
    limits = RequestLimits(refusal_delay_s=0, read_deadline_s=0.2)
    await world.stats.leaderboard(GUILD, LeaderboardSort.CLEAN_ROUNDS)
    opened, made, real = asyncio.Event(), [], pages._leaderboard_page

    async def slow(*args, **kwargs):
        await opened.wait()
        made.append(1)
        return await real(*args, **kwargs)

    monkeypatch.setattr(pages, "_leaderboard_page", slow)
    board = world.paths.leaderboard(LeaderboardSort.CLEAN_ROUNDS)
    async with site_of(world, limits) as (http, _):
        try:
            async with http.get(board) as refused:
                assert refused.status == 503 and "Busy" in await refused.text()
        finally:
            opened.set()
        limits.read_deadline_s = HANG_S
        async with asyncio.timeout(HANG_S):
            while not made:
                await asyncio.sleep(0.01)
        assert await status(http, board) == 200
    assert made == [1]


async def test_a_read_turn_alone_leaves_the_reads_in_the_foreground():
    """A board nobody kept is made in a read turn, and Discord's /leaderboard may wait for
    the same board: only a page read anew reads in the background (`reads_in_turn`)."""
    async with RequestLimits().read_turn():
        assert not in_background()


async def test_a_page_read_anew_reads_on_none_of_discords_connections(world):
    """Its reads are the store's background reads (store/background.py): with every one of
    Discord's connections busy, it still answers."""
    db, taken, release = world.store.db, [], asyncio.Event()

    async def hold() -> None:
        async with db.read() as tx:
            await tx.fetchone("SELECT 1")
            taken.append(tx)
            await release.wait()

    holders = [asyncio.create_task(hold()) for _ in range(db.read_connections)]
    try:
        async with asyncio.timeout(HANG_S):
            while len(taken) < db.read_connections:
                await asyncio.sleep(0.01)
        async with site_of(world) as (http, _):
            assert await asyncio.wait_for(status(http, world.paths.player(1)), HANG_S) == 200
    finally:
        release.set()
        await asyncio.gather(*holders)


async def test_a_board_nobody_kept_waits_for_a_read_turn_and_a_kept_one_does_not(
        world, monkeypatch):
    limits = RequestLimits()
    held = HeldReads(world, world.store.stats, "player_stats", monkeypatch)
    async with site_of(world, limits) as (http, _), opened_at_the_end(held):
        kept = world.paths.leaderboard()
        assert await status(http, kept) == 200  # made now, kept for the next reader
        crowd = [asyncio.create_task(status(http, world.paths.player(1)))
                 for _ in range(READS_AT_ONCE)]
        await held.settled(READS_AT_ONCE)
        new_board = asyncio.create_task(
            status(http, world.paths.leaderboard(LeaderboardSort.GAMES)))
        async with asyncio.timeout(HANG_S):  # its board waits for a turn
            while limits.reads_waiting < 1:
                await asyncio.sleep(0.01)
        assert await asyncio.wait_for(status(http, kept), HANG_S) == 200
        assert not new_board.done()
        held.open()
        assert await asyncio.gather(*crowd, new_board) == [200] * (READS_AT_ONCE + 1)
