"""The hosting tests' fixtures: a fake clock, a game service over the test's store (and the
updates it announces), two services on one database as two processes have, and a tournament
world (tournament_support.py)."""

from __future__ import annotations

import pytest

from hosting import FakeClock, GameService
from hosting.ratings import RULES
from store import Store
from tests.hosting.tournament_support import World


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def updates() -> list:
    """Every update the `service` fixture announced, in order."""
    return []


@pytest.fixture
async def service(store, clock, updates) -> GameService:
    service = GameService(store, clock, seed_source=lambda: 7)

    async def collect(update):
        updates.append(update)

    service.add_listener(collect)
    return service


@pytest.fixture
def services(stores, clock) -> tuple[GameService, ...]:
    """One service per store of `stores`: processes sharing a database and a clock (so each
    knows another may write it, on SQLite too)."""
    return tuple(GameService(store, clock, seed_source=lambda: 7, shared=True)
                 for store in stores)


@pytest.fixture
async def world(db_location):
    """Tournaments over a game service on the test's database (tables get threads)."""
    store = await Store.open(db_location, rules=RULES)
    yield World(store, FakeClock(1_800_000_000))
    await store.close()
