"""What tests of both store backends share."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from store import Store

BACKENDS = ["sqlite", "postgresql"]  # the params of the store fixtures (tests/conftest.py)

# A constraint the database itself enforces (unique, CHECK, the append-only trigger), as
# each driver reports it.
INTEGRITY_ERRORS = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


async def vacuum_analyze(location) -> None:
    """On PostgreSQL, what autovacuum does on a live server: planner statistics and the
    visibility map that lets a covering index answer alone ("Index Only Scan")."""
    if not str(location).startswith("postgresql://"):
        return  # SQLite picks indexes by their shape; nothing to gather
    conn = await asyncpg.connect(str(location))
    try:
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


@asynccontextmanager
async def two_stores(location) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one database (each its own connections), as two processes have."""
    first = await Store.open(location)
    second = await Store.open(location)
    try:
        yield first, second
    finally:
        await second.close()
        await first.close()


def move_log_reads(store: Store, monkeypatch) -> list[list[int]]:
    """Each read of the move log through this store from now on, as the seqs it returned."""
    reads: list[list[int]] = []
    real = store.db.fetchall

    async def spied(sql, params=()):
        rows = await real(sql, params)
        if "FROM moves" in sql:
            reads.append([row["seq"] for row in rows])
        return rows

    monkeypatch.setattr(store.db, "fetchall", spied)
    return reads


def count_trips(db, monkeypatch, *, reader: bool = False) -> list:
    """SQLite: trips to the writing connection's thread (or the read-only connection's),
    counted where every trip goes: the connection's queue (aiosqlite's own calls and the
    store's, store/thread_calls.py, alike). Its thread keeps reading the queue it started with."""
    trips: list = []
    conn = db._reader if reader else db._conn
    queue = conn._tx

    class CountedQueue:
        def put_nowait(self, item) -> None:
            trips.append(item[1])
            queue.put_nowait(item)

    monkeypatch.setattr(conn, "_tx", CountedQueue())
    return trips
