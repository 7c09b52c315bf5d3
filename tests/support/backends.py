"""What tests of both store backends share."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

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
    """SQLite: trips to the writing connection's thread (or to any read-only connection's),
    counted where every trip goes: the connection's queue (aiosqlite's own calls and the
    store's, store/thread_calls.py, alike). Its thread keeps reading the queue it started with."""
    trips: list = []
    for conn in db._readers.connections if reader else [db._conn]:
        queue = conn._tx

        class CountedQueue:
            def put_nowait(self, item, queue=queue) -> None:
                trips.append(item[1])
                queue.put_nowait(item)

        monkeypatch.setattr(conn, "_tx", CountedQueue())
    return trips


@dataclass
class Gate:
    """A read that runs until the test opens the gate (`gated_read`)."""

    sql: str  # its statement: one row, `opened` = 1
    started: Callable[[], Awaitable[None]]  # returns once the statement is running
    open: Callable[[], Awaitable[None]]


@asynccontextmanager
async def gated_read(db, location) -> AsyncIterator[Gate]:
    """A slow read under the test's control, on either backend: on SQLite a function of the
    read-only connections that waits for an Event in the connection's thread; on PostgreSQL
    a shared advisory lock (held for its statement only) that waits for the test's own
    connection to let go of the lock."""
    if str(location).startswith("postgresql://"):
        async with _advisory_gate(location) as gate:
            yield gate
        return
    entered, opened = threading.Event(), threading.Event()

    def wait() -> int:
        entered.set()
        return int(opened.wait(30))

    for conn in db._readers.connections:
        await conn.create_function("gate", 0, wait)

    async def started() -> None:
        assert await asyncio.to_thread(entered.wait, 10), "the gated read never started"

    async def open_() -> None:
        opened.set()

    try:
        yield Gate("SELECT gate() AS opened", started, open_)
    finally:
        opened.set()


_GATE_KEY = 0x1A4A_0033


@asynccontextmanager
async def _advisory_gate(location) -> AsyncIterator[Gate]:
    holder = await asyncpg.connect(str(location))
    await holder.execute("SELECT pg_advisory_lock($1)", _GATE_KEY)

    async def started() -> None:
        async with asyncio.timeout(10):
            while not await holder.fetchval(
                    "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' "
                    "AND objid::bigint = $1 AND NOT granted", _GATE_KEY):
                await asyncio.sleep(0.01)

    async def open_() -> None:
        await holder.execute("SELECT pg_advisory_unlock($1)", _GATE_KEY)

    try:
        yield Gate("SELECT 1 AS opened FROM (SELECT pg_advisory_xact_lock_shared("
                   f"{_GATE_KEY})) AS waited", started, open_)
    finally:
        await holder.close()


async def value_of(tx, key: str) -> str | None:
    row = await tx.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
    return None if row is None else row["value"]


class HeldReads:
    """`count` read() blocks, each held open after its first statement (its snapshot taken)
    until `release`; what each saw of `key`."""

    def __init__(self, db, count: int, key: str) -> None:
        self._db, self._key = db, key
        self._released = asyncio.Event()
        self._holding = [asyncio.Event() for _ in range(count)]
        self.seen: list[str | None] = [None] * count
        self.seen_at_end: list[str | None] = [None] * count
        self._tasks = [asyncio.create_task(self._hold(n)) for n in range(count)]

    async def _hold(self, n: int) -> None:
        async with self._db.read() as tx:
            self.seen[n] = await value_of(tx, self._key)
            self._holding[n].set()
            await self._released.wait()
            self.seen_at_end[n] = await value_of(tx, self._key)

    async def all_holding(self) -> None:
        async with asyncio.timeout(10):
            await asyncio.gather(*(event.wait() for event in self._holding))

    async def release(self) -> None:
        self._released.set()
        await asyncio.gather(*self._tasks)
