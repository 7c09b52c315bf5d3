"""A page made leaves nothing for the garbage collector: its objects go when it is sent. A
macro bound to a page's context was a cycle through the page's whole data, and a crowd of
players' pages left ~40 such objects each: young collections of 10-15 ms every second or so,
each holding up the moves (issue 33)."""

from __future__ import annotations

import gc
from contextlib import asynccontextmanager

import aiohttp
import pytest
import pytest_asyncio

from store import LeaderboardSort
from tests.support.web import public_world, served
from web.limits import RequestLimits

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory):
    w = await public_world(tmp_path_factory.mktemp("garbage") / "lama.sqlite3")
    yield w
    await w.store.close()


@asynccontextmanager
async def collector_off():
    """The collector off for the block; what it finds after, counted by `found`."""
    gc.collect()
    gc.disable()
    found: list[int] = []
    try:
        yield found
    finally:
        found.append(gc.collect())
        gc.enable()


PAGES = {
    "a player's page": lambda world: world.paths.player(1),
    "the recent games": lambda world: world.paths.games(),
    "a replay": lambda world: world.paths.replay(world.game, 1),
    "a board": lambda world: world.paths.leaderboard(LeaderboardSort.TOKENS),
}


@pytest.mark.parametrize("page", sorted(PAGES))
async def test_a_page_made_leaves_no_garbage_for_the_collector(world, page):
    limits = RequestLimits(read_deadline_s=60)  # however loaded the machine
    async with served(world, limits) as server, \
            aiohttp.ClientSession(f"http://127.0.0.1:{server.port}") as http:
        path = PAGES[page](world)
        async with http.get(path) as first:  # its template compiled, its board kept
            assert first.status == 200
        world.stats.boards.clear()
        async with collector_off() as found:
            for _ in range(3):
                async with http.get(path) as response:
                    assert response.status == 200
                    await response.read()
                world.stats.boards.clear()
    assert found == [0]
