"""The pages read anew take turns at the store's read connections (web/read_turns.py): a crowd
asking for players' pages, each from its own address, leaves read connections to Discord's
`/lama stats` and `/leaderboard` (issue 33: reads that never queue behind a crowd)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
import pytest_asyncio

from tests.support.backends import gated_read
from tests.support.web import GUILD, open_world, play_game, serving
from web import Paths
from web.read_turns import AT_ONCE

pytestmark = pytest.mark.asyncio(loop_scope="module")
HANG_S = 10.0


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory):
    w = await open_world(tmp_path_factory.mktemp("read_turns") / "lama.sqlite3")
    await play_game(w, [(1, "Alice"), (2, "Bob")])
    await w.site.update_access(GUILD, public=True)
    w.paths = Paths(str(GUILD))
    yield w
    await w.store.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site(world):
    async with serving(world) as base, aiohttp.ClientSession(base) as http:
        yield http


class HeldStatistics:
    """Every player's statistics read on a read connection held until the gate opens."""

    def __init__(self, world, gate, monkeypatch) -> None:
        self.reading = 0
        self._some = asyncio.Event()
        real = world.store.stats.player_stats

        async def held(*args, **kwargs):
            self.reading += 1
            self._some.set()
            async with world.store.db.read() as tx:
                await tx.fetchone(gate.sql)
            return await real(*args, **kwargs)

        monkeypatch.setattr(world.store.stats, "player_stats", held)

    async def begun(self) -> None:
        await asyncio.wait_for(self._some.wait(), HANG_S)

    async def settled(self, most: int, within_s: float = 1.0) -> None:
        """Until `most` are reading, or `within_s` passed with fewer (those that could begin,
        began: each is a few turns of the loop from its request)."""
        loop = asyncio.get_running_loop()
        until = loop.time() + within_s
        while self.reading < most and loop.time() < until:
            await asyncio.sleep(0.01)


async def answered(site, path: str) -> int:
    async with site.get(path) as response:
        await response.read()
        return response.status


async def test_a_crowd_of_player_pages_leaves_read_connections_to_discord(world, site,
                                                                          monkeypatch):
    connections = world.store.db.read_connections
    assert connections > AT_ONCE
    async with gated_read(world.store.db, "sqlite") as gate:
        held = HeldStatistics(world, gate, monkeypatch)
        # as many pages as there are read connections (one address: within its limit of 6)
        crowd = [asyncio.create_task(answered(site, world.paths.player(1 + n % 2)))
                 for n in range(connections)]
        await held.begun()
        await gate.started()
        await held.settled(connections)
        assert held.reading == AT_ONCE
        # Discord's reader finds a connection while the crowd's pages wait their turn
        seasons = await asyncio.wait_for(world.store.seasons.seasons(GUILD), HANG_S)
        assert seasons is not None
        await gate.open()
        assert await asyncio.gather(*crowd) == [200] * connections
    assert held.reading == connections
