"""The PostgreSQL backend: two asyncpg pools, one pooled connection per transaction: writes
from one, reads (`read()`, `fetchall`) from another, read-only by PostgreSQL's own check. So a
flood of slow reads (leaderboards at 100,000 games) can hold every read connection and still
no write waits for one (issue 33); and each read has a server process of its own, side by side.

Unlike SQLite's single connection, transactions run side by side, so a transaction that reads
a row and then changes it locks the row first (`tx.for_update`, e.g. the game row in
store/game_rows.py): another transaction on the same game, from this process or another one,
waits for the commit instead of overwriting it. Writes run at READ COMMITTED, PostgreSQL's
default, with those row locks; `read()` is a REPEATABLE READ, read-only snapshot. A move's
usual commit (`batch`) is one statement where it can be (store/postgres_batch.py): one round
trip instead of BEGIN, four statements, COMMIT and the pool's reset; a single read
(`fetchall`, `fetchone`) is one statement too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from store.backend import (
    READ_CONNECTIONS,
    Database,
    Dialect,
    Held,
    Listening,
    Params,
    Row,
    Statement,
    Transaction,
)
from store.placeholders import to_numbered
from store.postgres_batch import guards_lead, one_statement

log = logging.getLogger(__name__)

# pg_advisory_xact_lock's key for "migrating": one process runs the steps, the others wait.
_MIGRATION_LOCK = 0x1A4A_B07
# pg_advisory_lock's key for "a bot runs on it": each bot shares it, store.copy takes it alone.
_RUNNING_LOCK = 0x1A4A_B08


def is_postgres_url(location: object) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _rowcount(status: str) -> int:
    """asyncpg answers with the command tag: "UPDATE 3", "INSERT 0 1", "DELETE 0"."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTransaction(Transaction):
    dialect = Dialect.POSTGRESQL

    async def execute(self, sql: str, params: Params = ()) -> int:
        self._check()
        statement = to_numbered(sql)
        return _rowcount(await self._conn.execute(statement.sql, *statement.args(params)))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self._check()
        statement = to_numbered(sql)
        args = [statement.args(row) for row in rows]
        if args:
            await self._conn.executemany(statement.sql, args)

    async def load(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
                   ) -> None:
        self._check()
        await self._conn.copy_records_to_table(table, columns=list(columns), records=rows)

    async def insert(self, sql: str, params: Params = ()) -> int:
        self._check()
        statement = to_numbered(f"{sql} RETURNING id")
        return int(await self._conn.fetchval(statement.sql, *statement.args(params)))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        self._check()
        statement = to_numbered(sql)
        row: Row | None = await self._conn.fetchrow(statement.sql, *statement.args(params))
        return row

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        self._check()
        statement = to_numbered(sql)
        return list(await self._conn.fetch(statement.sql, *statement.args(params)))

    async def lock(self, name: str, key: int) -> None:
        self._check()
        # One 64-bit advisory key per (name, key); a hash collision only makes two unrelated
        # writers wait for each other, never lets two holders in.
        await self._conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                                 f"{name}:{key}")

    async def explain(self, sql: str, params: Params = (), *, as_if_large: bool = False
                      ) -> list[str]:
        if as_if_large:
            await self.execute("SET LOCAL enable_seqscan = off")
        return [row[0] for row in await self.fetchall(f"EXPLAIN {sql}", params)]

    async def execute_script(self, sql: str) -> None:
        self._check()
        await self._conn.execute(sql)  # no parameters: the simple protocol runs them all

    async def read_schema_version(self) -> int:
        self._check()
        version = await self._conn.fetchval("SELECT version FROM schema_version")
        return int(version or 0)

    async def write_schema_version(self, version: int) -> None:
        self._check()
        await self._conn.execute(
            "INSERT INTO schema_version (only_row, version) VALUES (TRUE, $1) "
            "ON CONFLICT (only_row) DO UPDATE SET version = excluded.version",
            version,
        )


class PostgresHold:
    """A running mark: an advisory lock of the session of a connection of its own."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def release(self) -> None:
        if not self._conn.is_closed():
            await self._conn.close()  # the session's advisory locks go with it


class PostgresListening:
    """A LISTEN on a connection of its own: a pooled connection must not keep one."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    @property
    def alive(self) -> bool:
        return not self._conn.is_closed()

    async def close(self) -> None:
        if self.alive:
            await self._conn.close()


class PostgresDatabase(Database):
    """A pool of connections to one PostgreSQL database. Build it with `open_database`."""

    dialect = Dialect.POSTGRESQL

    def __init__(self, pool: Any, readers: Any, url: str, read_connections: int) -> None:
        self._pool = pool
        self._url = url
        self._readers = readers
        self.read_connections = read_connections
        self._owners: set[asyncio.Task[Any]] = set()
        self._closed = False
        self.location = without_password(url)

    async def hold_running(self, *, alone: bool = False) -> Held | None:
        """A session advisory lock on a connection of its own: shared by the running bots,
        alone for a copy; PostgreSQL frees it with the session, however the process ends."""
        conn = await asyncpg.connect(self._url)
        try:
            took = await conn.fetchval(
                "SELECT pg_try_advisory_lock($1)" if alone else
                "SELECT pg_try_advisory_lock_shared($1)", _RUNNING_LOCK)
        except BaseException:
            await conn.close()
            raise
        if not took:
            await conn.close()
            return None
        return PostgresHold(conn)

    async def listen(self, channel: str, on_payload: Callable[[str], None]) -> Listening | None:
        try:
            conn = await asyncpg.connect(self._url)
        except (OSError, asyncpg.PostgresError) as error:
            log.warning("cannot listen on %s: %s", self.location, error)
            return None
        await conn.add_listener(channel, lambda _conn, _pid, _channel, payload: on_payload(
            payload))
        return PostgresListening(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self._connection(isolation="read_committed", readonly=False) as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        async with self._connection(isolation="repeatable_read", readonly=True) as tx:
            yield tx

    @asynccontextmanager
    async def migration(self) -> AsyncIterator[Transaction]:
        async with self.transaction() as tx:
            assert isinstance(tx, PostgresTransaction)
            await tx._conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await tx._conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),"
                " version INTEGER NOT NULL)"
            )
            yield tx

    async def batch(self, statements: Sequence[Statement]) -> bool:
        """One statement, one round trip (store/postgres_batch.py) where the statements allow
        it; if that fails, the transaction statement by statement says why (False or the
        error), unless a leading guard's division by zero already did."""
        one = one_statement(statements)
        if one is None:
            return await super().batch(statements)
        sql, args = one
        try:
            async with self._pooled(self._pool) as conn:
                await conn.fetchval(to_numbered(sql).sql, *args)
        except asyncpg.DivisionByZeroError:
            if guards_lead(statements):
                return False
        except asyncpg.PostgresError:
            pass  # undone whole; the transaction below raises it again, or finds it refused
        else:
            return True
        return await super().batch(statements)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """One statement sees one snapshot by itself: no BEGIN and COMMIT around it (one
        round trip instead of three)."""
        statement = to_numbered(sql)
        async with self._pooled(self._readers) as conn:
            return list(await conn.fetch(statement.sql, *statement.args(params)))

    @asynccontextmanager
    async def _connection(self, *, isolation: str, readonly: bool) -> AsyncIterator[Transaction]:
        async with self._pooled(self._readers if readonly else self._pool) as conn:
            tx = PostgresTransaction(conn)
            try:
                async with conn.transaction(isolation=isolation, readonly=readonly):
                    yield tx
            finally:
                tx._close()

    @asynccontextmanager
    async def _pooled(self, pool: Any) -> AsyncIterator[Any]:
        task = asyncio.current_task()
        if task is not None and task in self._owners:
            # Same rule as SQLite's: a second connection could wait on this one's row locks.
            raise RuntimeError("nested store transaction: pass the open Transaction down instead")
        if self._closed:
            raise RuntimeError(f"the database {self.location} is closed")
        if task is not None:
            self._owners.add(task)
        try:
            async with pool.acquire() as conn:
                yield conn
        finally:
            if task is not None:
                self._owners.discard(task)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self._readers.close()  # waits for the connections in use to come back
        finally:
            await self._pool.close()


async def _nothing_to_reset(conn: Any) -> None:
    """A connection goes back to the pool as it is: the store leaves nothing in a session
    that outlives its transaction (advisory locks are pg_advisory_xact_lock, settings SET
    LOCAL, no cursor or LISTEN on a pooled connection; asyncpg itself rolls back a transaction
    left open and drops listeners). asyncpg's default reset (RESET ALL, UNLISTEN *, CLOSE
    ALL, pg_advisory_unlock_all) would be one more round trip at the end of every
    transaction, a move's included."""


async def open_postgres(url: str, *, max_connections: int = 10,
                        read_connections: int = READ_CONNECTIONS) -> PostgresDatabase:
    """Connect the pools to the database at `url` (postgresql://user:password@host:port/name):
    up to `max_connections` for writes, `read_connections` for reads."""
    pool = await _pool(url, max_connections)
    try:
        readers = await _pool(url, read_connections,
                              server_settings={"default_transaction_read_only": "on"})
    except BaseException:
        await pool.close()
        raise
    return PostgresDatabase(pool, readers, url, read_connections)


async def _pool(url: str, size: int, **options: Any) -> Any:
    return await asyncpg.create_pool(
        url, min_size=1, max_size=size,
        # The store has a few hundred distinct statements; keep them all prepared.
        statement_cache_size=1024,
        reset=_nothing_to_reset,
        **options,
    )
