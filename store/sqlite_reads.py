"""SQLite's reads: a few read-only connections, each with its own thread, side by side.

In WAL mode any number of connections read at once, each from the last commit (as of its
statement, or of its read transaction's first statement), while the one writer writes. With a
single read connection, every read queued behind whichever read held it: at 100,000 games a
leaderboard's ranking takes 30-150 ms, and a flood of web pages held every `/leaderboard`,
`/lama stats` and every move's one-row read behind it (issue 33: ~10 pages/s at any
concurrency). So `SqliteReaders` holds `READ_CONNECTIONS` of them (`mode=ro`: SQLite itself
refuses a write through one); SQLite runs a statement with the GIL let go, so two reads really
run on two cores.

- `connection()`: one connection for a `read()` block's snapshot, the first idle one (or the
  first to come back), held until the block ends; a slow block holds only its own.
- `fetchall()`: one-statement reads (a move's "did another process move this game?", a
  player's language) need no BEGIN, so every one waiting goes to the thread in one trip
  (`run_reads`), on whichever connection is free first; the reads that queue meanwhile go
  together to the next free one, so a slow read in one trip holds up only that trip's.

Their threads run at a lower priority than the rest of the process (`READ_NICENESS`, on
Linux, which keeps a niceness per thread): an aggregation over 100,000 games takes a core for
100-200 ms, and on two cores the event loop and the writer's thread, which every move waits
for, should have the cores first; a read waits a little longer instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import aiosqlite

from store.backend import READ_CONNECTIONS, Params, Row
from store.batches import hand_over
from store.thread_calls import call_in_thread

READ_NICENESS = 10  # added to the process's; 19 at most
Query = tuple[str, Params]
Waiting = list[tuple[Query, "asyncio.Future[list[Row]]"]]


def run_reads(conn: sqlite3.Connection, queries: Sequence[Query]) -> list[list[Row] | Exception]:
    """In the connection's thread, outside any transaction: each query's rows (or error)."""
    results: list[list[Row] | Exception] = []
    for sql, params in queries:
        try:
            results.append(conn.execute(sql, params).fetchall())
        except Exception as error:
            results.append(error)
    return results


class SqliteReaders:
    """The read-only connections of one file. Build with `open_readers`, end with `close`."""

    def __init__(self, connections: Sequence[aiosqlite.Connection]) -> None:
        self.connections = tuple(connections)
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for conn in self.connections:
            self._idle.put_nowait(conn)
        self._waiting: Waiting = []
        self._gatherer: asyncio.Task[None] | None = None  # waits for a connection for them
        self._trips: set[asyncio.Task[None]] = set()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[aiosqlite.Connection]:
        """An idle connection, held until the block ends (first come, first served)."""
        conn = await self._idle.get()
        try:
            yield conn
        finally:
            self._idle.put_nowait(conn)

    async def fetchall(self, sql: str, params: Params) -> list[Row]:
        """The rows of one statement, read with every other one waiting, in one trip. A caller
        cancelled before its trip began: its statement never runs."""
        future: asyncio.Future[list[Row]] = asyncio.get_running_loop().create_future()
        self._waiting.append(((sql, params), future))
        if self._gatherer is None:
            task = self._gatherer = asyncio.create_task(self._trip(), name="store-reader")
            self._trips.add(task)
            task.add_done_callback(self._trips.discard)
        return await future

    async def _trip(self) -> None:
        try:
            async with self.connection() as conn:
                self._gatherer = None  # reads queued from now on go to the next free one
                taken = [(query, f) for query, f in self._waiting if not f.cancelled()]
                self._waiting = []
                if taken:
                    await _run(conn, taken)
        except BaseException:
            if self._gatherer is asyncio.current_task():  # cancelled before it took any
                self._gatherer = None
                taken, self._waiting = self._waiting, []
                for _, future in taken:
                    future.cancel()
            raise

    async def drain(self) -> None:
        """Wait until every read submitted so far is answered."""
        while self._trips:
            await asyncio.gather(*self._trips, return_exceptions=True)

    async def close(self) -> None:
        """Close every connection, each once its read is done; the first failure is raised
        after all of them were closed (their threads end either way)."""
        await self.drain()
        failure: BaseException | None = None
        closed = [await self._idle.get() for _ in self.connections]
        for conn in closed:
            try:
                await conn.close()
            except Exception as error:
                failure = failure or error
        for conn in closed:  # a read after the close fails as on any closed connection
            self._idle.put_nowait(conn)
        if failure is not None:
            raise failure


async def _run(conn: aiosqlite.Connection, taken: Waiting) -> None:
    """The statements in one trip to the connection's thread; each caller hears its own."""
    try:
        outcomes: Sequence[Any] = await call_in_thread(
            conn, partial(run_reads, conn._conn, [query for query, _ in taken]))
    except Exception as error:
        outcomes = [error] * len(taken)
    except BaseException:  # the trip itself cancelled (shutdown): nobody hangs
        for _, future in taken:
            future.cancel()
        raise
    hand_over(taken, outcomes)


async def open_readers(path: Path, count: int = READ_CONNECTIONS) -> SqliteReaders:
    """`count` connections for reads, read-only by SQLite's own check (`mode=ro`)."""
    opened: list[aiosqlite.Connection] = []
    try:
        for _ in range(count):
            opened.append(await _open_reader(path))
    except BaseException:
        for conn in opened:
            await conn.close()
        raise
    return SqliteReaders(opened)


async def _open_reader(path: Path) -> aiosqlite.Connection:
    reader = await aiosqlite.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                     isolation_level=None)
    try:
        reader.row_factory = sqlite3.Row
        await reader.execute("PRAGMA busy_timeout = 5000")
        await call_in_thread(reader, _lower_priority)
    except BaseException:
        await reader.close()
        raise
    return reader


def _lower_priority() -> None:
    """In a read connection's thread: run below the event loop and the writer. Only on Linux,
    where a niceness belongs to a thread (elsewhere the whole process's would change)."""
    if not sys.platform.startswith("linux"):
        return
    thread = threading.get_native_id()
    with contextlib.suppress(OSError):  # a sandbox that forbids it: the process's priority
        os.setpriority(os.PRIO_PROCESS, thread,
                       min(19, os.getpriority(os.PRIO_PROCESS, thread) + READ_NICENESS))
