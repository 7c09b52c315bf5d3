"""Open the store's database: SQLite at a path (the default), or PostgreSQL at a
`postgresql://` URL. Both implement store.backend's Database and Transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from store.backend import READ_CONNECTIONS, Database, Dialect, Params, Row, Transaction
from store.errors import StoreBusy, StoreUnwritable
from store.health import prove_writable, unusable
from store.migrate import Migration, apply_migrations, load_migrations
from store.postgres import is_postgres_url, open_postgres
from store.sqlite import open_sqlite

Location = str | PathLike[str]


async def connect(location: Location, *, read_connections: int = READ_CONNECTIONS
                  ) -> Database:
    """The database at `location` as it is, not migrated (open_database migrates it), with
    `read_connections` connections for reads."""
    if is_postgres_url(location):
        return await open_postgres(str(location), read_connections=read_connections)
    return await open_sqlite(Path(location), read_connections=read_connections)


async def open_database(
    location: Location, *, migrations: Sequence[Migration] | None = None,
    read_connections: int = READ_CONNECTIONS,
) -> Database:
    """Open and migrate the database at `location`: a file path (SQLite; folder and file are
    created if needed) or a `postgresql://user:password@host:port/name` URL.

    Raises SchemaTooNew if the database was written by newer code, DatabaseUnusable if a
    SQLite file cannot be written. `migrations` replaces the packaged steps, for tests of the
    migration runner itself. `read_connections`: how many reads run at once (one, as before
    issue 33, for a benchmark's "before").
    """
    if is_postgres_url(location):
        return await _open(location, migrations, read_connections)
    try:
        return await _open(location, migrations, read_connections)
    except (OSError, sqlite3.Error, StoreBusy, StoreUnwritable) as error:
        problem = unusable(Path(location), error)
        if problem is None:
            raise
        raise problem from error


async def _open(location: Location, migrations: Sequence[Migration] | None,
                read_connections: int) -> Database:
    db = await connect(location, read_connections=read_connections)
    try:
        steps = load_migrations(db.dialect) if migrations is None else tuple(migrations)
        await apply_migrations(db, steps)
        if db.dialect is Dialect.SQLITE:  # a read-only file is found now, not at a move
            await prove_writable(db)
    except BaseException:
        await db.close()
        raise
    return db


__all__ = ["Database", "Dialect", "Location", "Params", "Row", "Transaction", "connect",
           "open_database"]
