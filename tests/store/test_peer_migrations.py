"""Issue 33, point 2: two processes starting together on one empty database both migrate it.
One runs each step, the other waits for it (PostgreSQL: an advisory lock; SQLite: its write
lock) and finds it done: neither fails, no step runs twice, the schema is the one a single
process builds."""

from __future__ import annotations

import asyncio
import logging

from store import Store, load_migrations
from tests.store.schemas import schema_dump, snapshot_path


async def test_two_stores_opening_one_empty_database_at_once_migrate_it_once(
        empty_db_location, db_backend, caplog):
    with caplog.at_level(logging.INFO, logger="store.migrate"):
        first, second = await asyncio.gather(Store.open(empty_db_location),
                                             Store.open(empty_db_location))
    steps = load_migrations(first.db.dialect)
    for store in (first, second):
        assert await store.db.schema_version() == steps[-1].version
        await store.close()
    migrated = [r.getMessage() for r in caplog.records if "migrated to version" in r.getMessage()]
    assert len(migrated) == len(steps)  # each step once, by one of the two
    assert await schema_dump(empty_db_location) == snapshot_path(first.db.dialect).read_text(
        encoding="utf-8")
