"""The store's one database interface; SQLite (store/sqlite.py) and PostgreSQL
(store/postgres.py) implement it, in the manner of mautrix-python's async_db.

Store modules write one SQL text for both dialects: `?` or `:name` placeholders (PostgreSQL
gets them translated to `$n`, see store/placeholders.py), `INSERT … ON CONFLICT`, and rows read
by column name or position. Where the dialects really differ, a module asks `tx.dialect`.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

Params = Sequence[Any] | Mapping[str, Any]
T = TypeVar("T")
# Reads at once by default, on either backend: SQLite's read-only connections (each with its
# thread) or PostgreSQL's read pool. More than the cores there are buys little.
READ_CONNECTIONS = 4


class Row(Protocol):
    """A result row (sqlite3.Row or asyncpg.Record): `row["name"]` or `row[0]`."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Any: ...


class Dialect(enum.StrEnum):
    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


class Transaction(ABC):
    """The statements of one transaction; only valid inside its `async with` block."""

    dialect: Dialect

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self._open = True

    def _check(self) -> None:
        if not self._open:
            raise RuntimeError("this transaction has ended")

    def _close(self) -> None:
        """Called by its database when the block ends: later statements are refused."""
        self._open = False

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row."""

    @abstractmethod
    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT into a table keyed by an `id` column; returns the new row's id."""

    @abstractmethod
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    @abstractmethod
    async def explain(self, sql: str, params: Params = (), *, as_if_large: bool = False
                      ) -> list[str]:
        """The query plan of `sql`, one line per step, for tests and benchmarks.

        `as_if_large`: plan as for a big table. PostgreSQL's planner rightly scans a tiny
        test table whole; with sequential scans off it shows whether an index can serve the
        query. SQLite picks indexes by their shape alone.
        """

    async def load(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
                   ) -> None:
        """Append many rows to `table` at once (a copy of a whole database, store/copy.py):
        an INSERT per row here; PostgreSQL streams them with COPY, several times faster."""
        marks = ", ".join("?" * len(columns))
        await self.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    @abstractmethod
    async def execute_script(self, sql: str) -> None:
        """Run a migration file: several statements, no parameters."""

    @abstractmethod
    async def read_schema_version(self) -> int:
        """The migration step the database is at (0: none), read under the migration lock."""

    @abstractmethod
    async def write_schema_version(self, version: int) -> None: ...

    @abstractmethod
    async def lock(self, name: str, key: int) -> None:
        """Hold the lock `name` of `key` (e.g. "ratings" of a server) until this transaction
        ends: for writes that read rows which may not exist yet, so FOR UPDATE has nothing to
        lock. PostgreSQL takes a transaction-level advisory lock; SQLite needs nothing (its
        BEGIN IMMEDIATE is already the only writer)."""

    @property
    def for_update(self) -> str:
        """Append to a SELECT that reads a row this transaction will change.

        PostgreSQL locks the rows (another process's transaction on them waits until this one
        ends); SQLite needs nothing, because BEGIN IMMEDIATE already holds its only writer lock.
        """
        return " FOR UPDATE" if self.dialect is Dialect.POSTGRESQL else ""


def skip_locked(dialect: Dialect) -> str:
    """Append to a SELECT that claims rows as a job queue does: PostgreSQL locks the rows it
    returns and passes over rows another transaction holds, instead of waiting for it; SQLite
    needs nothing (BEGIN IMMEDIATE: no other transaction writes meanwhile)."""
    return " FOR UPDATE SKIP LOCKED" if dialect is Dialect.POSTGRESQL else ""


@dataclass(frozen=True)
class Statement:
    """One statement of `Database.batch`; a `guard` must change a row or its batch is undone."""

    sql: str
    params: Params = ()
    guard: bool = False


class Undone(Exception):
    """A batch's guard changed nothing: roll the batch back (`Database.batch` → False)."""


class Listening(Protocol):
    """A LISTEN of `Database.listen`, on a connection of its own."""

    @property
    def alive(self) -> bool:
        """Still hearing (its connection was not lost)."""

    async def close(self) -> None: ...


class Held(Protocol):
    """A held `Database.hold_running` mark."""

    async def release(self) -> None: ...


class Database(ABC):
    """A migrated database. Build one with `store.db.open_database`."""

    dialect: Dialect
    #: Where it is, for messages: a file path, or a URL without its password.
    location: str
    #: How many reads run at once (SQLite's read-only connections, PostgreSQL's read pool):
    #: a slow read holds one of them, never the others, nor the writes.
    read_connections: int

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction: COMMIT at the end of the block, ROLLBACK if it raises."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Transaction]:
        """A read-only snapshot: several queries that see the same committed state, on a
        connection of its own for the block (one of `read_connections`)."""

    @abstractmethod
    def migration(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction that holds the migration lock: one process migrates at a time."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (after a running transaction); a second call is a no-op."""

    @abstractmethod
    async def hold_running(self, *, alone: bool = False) -> Held | None:
        """The database's running mark: every bot process holds it (shared) for as long as it
        runs, and a process that dies lets go of it with its connection or file. `alone`:
        held by nobody else, taken without waiting (`store.copy`), else None. The mark of a
        process that is gone is never left behind."""

    async def listen(self, channel: str, on_payload: Callable[[str], None]) -> Listening | None:
        """Hear every NOTIFY on `channel` as it commits (`on_payload(payload)`), until the
        returned handle is closed; None where the database tells nobody (SQLite: one file, no
        server to tell through) or cannot now: the caller looks for itself instead."""
        return None

    async def batch(self, statements: Sequence[Statement]) -> bool:
        """A write transaction of fixed statements (a move's usual commit). A statement marked
        `guard` must change a row, else the batch is undone and False returned (the caller then
        looks at why, in a `transaction()`); an error undoes it and is raised. Here: one
        `transaction()`; SQLite commits batches together in one trip (store/batches.py),
        PostgreSQL sends a batch as one statement where it can (store/postgres_batch.py)."""
        try:
            async with self.transaction() as tx:
                for statement in statements:
                    changed = await tx.execute(statement.sql, statement.params)
                    if statement.guard and changed < 1:
                        raise Undone
        except Undone:
            return False
        return True

    async def write(self, body: Callable[[Transaction], Coroutine[Any, Any, T]]) -> T:
        """A write transaction given as a function: `await db.write(body)` is `body(tx)`'s
        result, committed, or its error, rolled back. Here: one `transaction()`. SQLite runs
        the whole body in its thread, committed with the batches waiting (one trip instead of
        one per statement, store/sqlite_transactions.py). So the body may await nothing but
        its transaction's statements: for anything else, such as another store call, use a
        `transaction()` block. Once its trip has begun, a write commits even if its caller
        is cancelled meanwhile."""
        async with self.transaction() as tx:
            return await body(tx)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """The rows of one read-only statement, as committed now. Cheaper than a `read()`
        block, which is for several queries that must see the same state: SQLite serves
        every such read waiting in one trip to its thread (store/batches.py)."""
        async with self.read() as tx:
            return await tx.fetchall(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of one read-only statement (`fetchall`), or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def schema_version(self) -> int:
        async with self.migration() as tx:
            return await tx.read_schema_version()

