"""The SQLite backend: one aiosqlite connection for writes, a few read-only ones for reads,
and writes that never interleave.

Every statement of the store runs inside `Database.transaction()` or `Database.write(body)`
(writes), `Database.batch()` (fixed statements) or `Database.read()` (a consistent
snapshot). The writer is one asyncio.Lock, because all coroutines share one connection:
without it, coroutine B's statements would land inside coroutine A's open transaction and be
committed or rolled back with it. Batches and write bodies go to SQLite's thread together,
in one trip (store/batches.py, store/sqlite_transactions.py). Reads run side by side on
read-only connections of their own (store/sqlite_reads.py).
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from store.backend import (
    READ_CONNECTIONS,
    Database,
    Dialect,
    Held,
    Params,
    Row,
    Statement,
    Transaction,
    Undone,
)
from store.background import BACKGROUND_READERS, in_background
from store.batches import GroupCommit, Unit, run_statements, run_units
from store.errors import DatabaseUnusable, StoreBusy
from store.health import check_folder, runtime_error
from store.read_process import ProcessReaders
from store.sqlite_reads import SqliteReaders, open_readers
from store.sqlite_transactions import SqliteTransaction, run_body
from store.thread_calls import call_in_thread
from store.wal_checkpoints import BACKSTOP_PAGES, SIZE_LIMIT_BYTES, WalCheckpoints

log = logging.getLogger(__name__)
T = TypeVar("T")


class FileHold:
    """A running mark: a flock on a file beside the database."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    async def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # the lock goes with the descriptor
            self._fd = None


class SqliteDatabase(Database):
    """The store's connections to one file. Build it with `store.db.open_database`."""

    dialect = Dialect.SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: Path, readers: SqliteReaders,
                 background: ProcessReaders) -> None:
        self._conn = conn
        self._checkpoints: WalCheckpoints | None = None
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        # Reads go through read-only connections of their own: in WAL mode they read the
        # last commit while a writer (ours, stalled, or another process's) holds the write
        # lock, so a leaderboard or a player's stats never wait behind a stalled move; and
        # several of them read at once, so no read waits behind a slow one.
        self._readers = readers
        self._background = background  # the web site's pages read anew (store/background.py)
        self.read_connections = len(readers.connections)
        self._closed = False
        self._busy = False  # the last write found the database locked by another program
        self.path = path
        self.location = str(path)
        self._writes: GroupCommit[Unit, Any] = GroupCommit(self._run_units, self._lock)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK if the block raises (or is cancelled).

        IMMEDIATE takes SQLite's write lock at BEGIN, so a read-then-write inside the block
        can never be overtaken by another writer (another process, e.g. a maintenance script).
        BEGIN runs with the block's first statement: a busy database (StoreBusy) is found
        there, and a block that runs no statement costs nothing.
        """
        async with self._locked("BEGIN IMMEDIATE") as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        """A read-only snapshot: several queries that see the same committed state, on a
        read-only connection of its own (the first one free)."""
        self._refuse_nested()
        if in_background():
            async with self._background.transaction() as tx:
                yield tx
            return
        async with self._readers.connection() as conn, self._begun(
                conn, "BEGIN DEFERRED", reading=True) as tx:
            yield tx

    def migration(self) -> AbstractAsyncContextManager[Transaction]:
        # BEGIN IMMEDIATE is already the only writer: another process waits for it.
        return self.transaction()

    def _refuse_nested(self) -> None:
        if self._owner is not None and self._owner is asyncio.current_task():
            # The lock is not re-entrant: waiting for it here would wait forever.
            raise RuntimeError("nested store transaction: pass the open Transaction down instead")

    @asynccontextmanager
    async def _locked(self, begin: str) -> AsyncIterator[Transaction]:
        self._refuse_nested()
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                async with self._begun(self._conn, begin) as tx:
                    yield tx
                self._went_through()
            finally:
                self._owner = None

    @asynccontextmanager
    async def _begun(self, conn: aiosqlite.Connection, begin: str, *, reading: bool = False
                     ) -> AsyncIterator[Transaction]:
        """A transaction on `conn`, held by the caller: BEGIN with its first statement,
        COMMIT at the end, ROLLBACK if the block raises (or is cancelled)."""
        tx = SqliteTransaction(conn)
        if reading:
            tx.reads_only()
        try:
            if conn.in_transaction:  # only after a cancelled _settle(): be safe
                log.warning("rolling back a transaction left open on %s", self.path)
                await conn.execute("ROLLBACK")
            tx._begin = begin
            yield tx
            if conn.in_transaction:  # else no statement ran: nothing to commit
                await tx.execute("COMMIT")
        except BaseException as error:
            await _settle(conn)
            if not reading:  # a write through read() is a bug, not a disk to fix
                self._raise_typed(error)
            raise
        finally:
            tx._close()

    async def batch(self, statements: Sequence[Statement]) -> bool:
        """Committed with the other batches waiting, in one trip to SQLite's thread
        (store/batches.py): `transaction()` costs a trip per statement with the connection
        held (under load, one that outlasts the loop's blocking wait also waits for a turn of
        the event loop), so a 6-statement commit held every other game's commit 6 times."""
        try:
            return await self._submit(partial(run_statements, statements))
        except Undone:
            return False

    async def write(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """The whole body in SQLite's thread, committed with the batches waiting: one trip
        (store/sqlite_transactions.py). A `transaction()` block holds the writer for a trip
        per statement, and every move's commit waits behind it."""
        result: T = await self._submit(partial(run_body, body))
        return result

    async def _submit(self, unit: Unit) -> Any:
        if self._owner is not None and self._owner is asyncio.current_task():
            # the group commit needs the writer this task holds: it would wait forever
            raise RuntimeError("a store write inside a transaction() block: use its Transaction")
        try:
            done = await self._writes.submit(unit)
        except sqlite3.Error as error:  # this unit's own failure (e.g. read-only), typed
            self._raise_typed(error)
            raise
        self._went_through()
        return done

    async def _run_units(self, units: list[Unit]) -> list[Any]:
        """With the writer held (by the group commit)."""
        # One trip to SQLite's thread, waited for blocked (store/thread_calls.py);
        # tests/store/test_db.py checks it stays one trip.
        try:
            return await call_in_thread(self._conn, partial(run_units, self._conn._conn, units))
        except sqlite3.Error as error:
            self._raise_typed(error)
            raise

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Served with every other one-statement read waiting, in one trip to the first free
        read connection (no BEGIN: one SELECT sees one snapshot)."""
        if in_background():
            return await self._background.fetchall(sql, params)
        return await self._readers.fetchall(sql, params)

    def _raise_typed(self, error: BaseException) -> None:
        """SQLite's busy, read-only or disk-full failure as the store's typed error. A busy
        database is a warning once, until a write goes through again (each retry of a stretch
        is INFO): another program holds the lock, and every caller tries again."""
        typed = runtime_error(error, self.path)
        if typed is not None:
            level = logging.ERROR
            if isinstance(typed, StoreBusy):
                level = logging.INFO if self._busy else logging.WARNING
                self._busy = True
            log.log(level, "nothing saved: %s", typed)
            raise typed from error

    def _went_through(self) -> None:
        if self._busy:
            self._busy = False
            log.info("writes to %s go through again", self.path)

    async def hold_running(self, *, alone: bool = False) -> Held | None:
        """An advisory lock on the file `<database>-running` beside it (flock: shared by the
        running bot, alone for a copy); the system frees it with the process, however it
        ends. (SQLite's own locks are on the database file and its -shm, untouched.)"""
        path = self.path.with_name(f"{self.path.name}-running")
        try:
            fd = await asyncio.to_thread(os.open, path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise DatabaseUnusable(self.path, f"{path.name} cannot be made beside it "
                                   f"({error.strerror})", "let the bot write its folder") from error
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if alone else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        return FileHold(fd)

    async def close(self) -> None:
        """Close the connection (waiting for a running transaction and the batches already
        submitted); a second call is a no-op."""
        await self._writes.drain()
        await self._readers.drain()
        async with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            if self._checkpoints is not None:
                await self._checkpoints.close()
        finally:
            try:
                await self._readers.close()
            finally:
                try:
                    await self._background.close()
                finally:
                    await self._close_writer()

    async def start_checkpoints(self) -> None:
        """Checkpoint the WAL on a connection of its own (store/wal_checkpoints.py)."""
        self._checkpoints = await WalCheckpoints.start(self.path, self._lock)

    async def _close_writer(self) -> None:
        """Last, so the writer is the last connection: it copies the WAL's rest into the file
        and removes the WAL (a read-only connection could not)."""
        async with self._lock:
            try:
                # Lets SQLite refresh its planner statistics where they went stale; cheap.
                await self._conn.execute("PRAGMA optimize")
            finally:
                await self._conn.close()


async def _settle(conn: aiosqlite.Connection) -> None:
    """Roll back whatever transaction is still open on the connection.

    A cancelled await does not unqueue its statement from aiosqlite's worker thread, so
    BEGIN or an UPDATE may still run after our coroutine gave up on it. A no-op statement
    queued behind them is a barrier: once it has run, `in_transaction` tells the truth.
    """
    await conn.execute("SELECT 1")
    if conn.in_transaction:
        await conn.execute("ROLLBACK")


async def _configure(conn: aiosqlite.Connection, path: Path) -> bool:
    """The writer's PRAGMAs; whether the file is in WAL mode."""
    # Wait up to 5 s for another process's lock (a backup, a maintenance script) before
    # failing with "database is locked"; first, so the journal_mode switch below waits too.
    await conn.execute("PRAGMA busy_timeout = 5000")
    # WAL: readers never block the writer, and a commit is one append to the -wal file.
    async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
        row = await cursor.fetchone()
    wal = row is not None and str(row[0]).lower() == "wal"
    if not wal:
        log.warning("SQLite refused WAL mode for %s (journal_mode=%s)", path, row and row[0])
    else:  # a connection of its own checkpoints, off the commits' path (wal_checkpoints.py)
        await conn.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
        await conn.execute(f"PRAGMA journal_size_limit = {SIZE_LIMIT_BYTES}")
    # NORMAL instead of FULL: in WAL mode a commit is complete once it is written to the -wal
    # file, which survives the process dying (kill -9, a crash); only a power cut or OS crash
    # can lose the last few commits, and even then the database is never corrupted. FULL would
    # fsync on every move for protection we do not need on a bot host.
    await conn.execute("PRAGMA synchronous = NORMAL")
    # Off by default in SQLite, per connection; our cascades and seat references rely on it.
    await conn.execute("PRAGMA foreign_keys = ON")
    return wal


async def open_sqlite(path: Path, *, read_connections: int = READ_CONNECTIONS
                      ) -> SqliteDatabase:
    """Open (creating folder and file if needed) the database at `path`, not yet migrated,
    with `read_connections` read-only connections for reads."""
    path.parent.mkdir(parents=True, exist_ok=True)
    check_folder(path)  # aiosqlite leaves its thread behind when the file cannot be created
    # isolation_level=None: the sqlite3 module must not open transactions behind our back;
    # SqliteDatabase._locked issues BEGIN/COMMIT/ROLLBACK itself.
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        wal = await _configure(conn, path)
        readers = await open_readers(path, read_connections)
    except BaseException:
        await conn.close()
        raise
    db = SqliteDatabase(conn, path, readers, ProcessReaders(path, BACKGROUND_READERS))
    if wal:
        try:
            await db.start_checkpoints()
        except BaseException:
            await db.close()
            raise
    return db

