"""SQLite's two kinds of write transaction, sharing one set of statements.

- `SqliteTransaction`: a `transaction()` block. Each statement is one trip to the
  connection's thread (store/thread_calls.py), taken with the writer held.
- `ThreadTransaction`: a `Database.write(body)`. The whole body runs inside SQLite's thread
  (`run_body`), committed with the batches waiting: one trip, whatever its statements.

`run_body` drives the body's coroutine by hand, as an event loop would, but in the thread.
This works because each of the transaction's statements completes at once: the body never
really waits. So a body may await only its transaction, through the store's helpers that
take one (check_lobby, load_game, rate_stored_game, ...). An await that would suspend (another
store call, a contended lock, a sleep) stops the body, undoes it, and raises a RuntimeError
naming it; one that happens to complete at once (an uncontended asyncio.Lock, a cached
result) would run event-loop objects in SQLite's thread unnoticed, so none belongs in a body
(tests/store/test_write_bodies.py checks every body of the store, and the helpers it reaches).
"""

from __future__ import annotations

import sqlite3
from abc import abstractmethod
from collections.abc import Callable, Coroutine, Iterable
from functools import partial
from typing import Any, TypeVar

import aiosqlite

from store.backend import Dialect, Params, Row, Transaction
from store.migrate import split_statements
from store.thread_calls import BLOCKING_WAIT_S, call_in_thread

T = TypeVar("T")
Step = Callable[[sqlite3.Connection, str, Any], T]  # one statement, in the thread


class _SqliteStatements(Transaction):
    """Every statement as a `Step`; the subclass says where and when it runs."""

    dialect = Dialect.SQLITE

    @abstractmethod
    async def _step(self, step: Step[T], sql: str, params: Any) -> T: ...

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        return await self._step(_changed, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self._step(_many, sql, rows)

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT; returns the new row's rowid."""
        rowid = await self._step(_inserted, sql, params)
        if rowid is None:
            raise sqlite3.ProgrammingError(f"not an INSERT: {sql}")
        return rowid

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self._step(_first_row, sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._step(_all_rows, sql, params)

    async def lock(self, name: str, key: int) -> None:
        # BEGIN IMMEDIATE holds the database's only writer lock from the first statement on
        self._check()

    async def explain(self, sql: str, params: Params = (), *, as_if_large: bool = False
                      ) -> list[str]:
        return [row["detail"] for row in await self.fetchall(f"EXPLAIN QUERY PLAN {sql}", params)]

    async def execute_script(self, sql: str) -> None:
        # One statement at a time: executescript() would COMMIT our open transaction first.
        for statement in split_statements(sql):
            await self.execute(statement)

    async def read_schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def write_schema_version(self, version: int) -> None:
        # PRAGMA takes no parameters; the version is an int we produced ourselves.
        await self.execute(f"PRAGMA user_version = {int(version)}")


class SqliteTransaction(_SqliteStatements):
    """Each statement is one trip to the connection's thread: aiosqlite's cursors would cost
    a trip to open, one to fetch and one to close, with the connection held meanwhile. BEGIN
    goes with the first statement: every trip of a writing transaction holds the writer,
    and the moves' group commits wait behind it."""

    _conn: aiosqlite.Connection
    _begin: str | None = None  # BEGIN …, until the first statement runs it
    # How long the event loop waits blocked for each statement (store/thread_calls.py): the
    # writer's, as long as a quick statement takes; a read block's, not at all (below).
    _blocking_s: float = BLOCKING_WAIT_S

    def reads_only(self) -> None:
        """A `read()` block: its statements are awaited, never waited for blocked. A read
        block is seldom on a move's path (boards, statistics, a lobby's look-ups, a game
        loaded again), and its connection's thread runs below the event loop
        (store/sqlite_reads.py): when a burst of boards is made (a flood over every board
        after a game finished) the read threads are behind on the cores, each statement
        outlasted the blocking wait, and the event loop stood still for it, its moves with it
        (issue 33). One-statement reads (store/sqlite_reads.py) still wait blocked."""
        self._blocking_s = 0.0

    @property
    def begun(self) -> bool:
        return self._begin is None

    async def _step(self, step: Step[T], sql: str, params: Any) -> T:
        self._check()
        begin, self._begin = self._begin, None
        # One trip to the connection's thread (store/thread_calls.py; tests/store/test_db.py
        # checks each statement stays one trip).
        conn = self._conn._conn
        if begin is None:
            return await call_in_thread(self._conn, partial(step, conn, sql, params),
                                        self._blocking_s)
        try:
            return await call_in_thread(
                self._conn, partial(_begun, begin, step, conn, sql, params), self._blocking_s)
        except BaseException:
            if not self._conn.in_transaction:
                # BEGIN failed (busy, read-only): had the block caught it, its next statements
                # would each be saved on their own. The transaction is over instead.
                self._close()
            raise


class ThreadTransaction(_SqliteStatements):
    """The statements of a `write(body)`, run where the body runs: in SQLite's thread, inside
    the transaction (and savepoint) the group commit opened for it (store/batches.py)."""

    _conn: sqlite3.Connection

    _undone_by: sqlite3.Error | None = None

    async def _step(self, step: Step[T], sql: str, params: Any) -> T:
        self._check()
        if self._undone_by is not None:
            # SQLite undid the whole transaction (a full disk): a body that caught that error
            # would otherwise save its next statements each on its own. It hears it again.
            raise self._undone_by
        try:
            return step(self._conn, sql, params)
        except sqlite3.Error as error:
            if not self._conn.in_transaction:
                self._undone_by = error
            raise


def run_body(body: Callable[[Transaction], Coroutine[Any, Any, T]],
             conn: sqlite3.Connection) -> T:
    """In SQLite's thread: the body to its end, as one event-loop step (module docstring)."""
    tx = ThreadTransaction(conn)
    coroutine = body(tx)
    try:
        coroutine.send(None)
    except StopIteration as finished:
        return finished.value
    finally:
        tx._close()
    coroutine.close()
    name = getattr(getattr(body, "func", body), "__qualname__", "a write body")  # a partial's
    raise RuntimeError(
        f"{name} awaited something other than its transaction: a store write's body may only "
        "run statements (else use a transaction() block)")


def _begun(begin: str, step: Step[T], conn: sqlite3.Connection, sql: str, params: Any) -> T:
    conn.execute(begin)
    return step(conn, sql, params)


def _changed(conn: sqlite3.Connection, sql: str, params: Params) -> int:
    return _written(conn, sql, params)[0]


def _inserted(conn: sqlite3.Connection, sql: str, params: Params) -> int | None:
    return _written(conn, sql, params)[1]


def _written(conn: sqlite3.Connection, sql: str, params: Params) -> tuple[int, int | None]:
    """A write's rows changed and last rowid, its cursor closed in the thread."""
    cursor = conn.execute(sql, params)
    try:
        return cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


def _many(conn: sqlite3.Connection, sql: str, rows: Iterable[Params]) -> None:
    conn.executemany(sql, rows).close()


def _first_row(conn: sqlite3.Connection, sql: str, params: Params) -> Row | None:
    cursor = conn.execute(sql, params)
    try:
        row: Row | None = cursor.fetchone()
        return row
    finally:
        cursor.close()


def _all_rows(conn: sqlite3.Connection, sql: str, params: Params) -> list[Row]:
    return conn.execute(sql, params).fetchall()
