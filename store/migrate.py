"""Numbered schema steps, versioned inside the database (SQLite's `PRAGMA user_version`,
PostgreSQL's `schema_version` table).

Each dialect has its own files with the same numbers: store/migrations/NNNN_name.sql for
SQLite, store/migrations/postgres/NNNN_name.sql for PostgreSQL. Each step runs in its own
transaction together with its version bump, so a crash or an error leaves the database exactly
at the previous version, never half-way (PostgreSQL's DDL is transactional too).
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from store.backend import Dialect
from store.errors import SchemaTooNew

if TYPE_CHECKING:
    from store.backend import Database

log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


def split_statements(sql: str) -> list[str]:
    """Cut a script into statements (sqlite3.complete_statement knows about triggers)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    leftover = [ln for ln in buffer.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise ValueError(f"unterminated SQL statement: {buffer.strip()[:80]!r}")
    return statements


_FOLDERS = {Dialect.SQLITE: ("migrations",), Dialect.POSTGRESQL: ("migrations", "postgres")}


def load_migrations(dialect: Dialect = Dialect.SQLITE) -> tuple[Migration, ...]:
    """The packaged steps of `dialect`, checked to be numbered 1, 2, 3, … exactly."""
    folder = resources.files("store").joinpath(*_FOLDERS[dialect])
    found: list[Migration] = []
    for entry in folder.iterdir():
        if entry.is_dir():
            continue
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
        elif entry.name.endswith(".sql"):
            raise ValueError(f"migration file {entry.name} is not named NNNN_name.sql")
    found.sort(key=lambda m: m.version)
    check_numbering(found)
    return tuple(found)


def check_numbering(migrations: Sequence[Migration]) -> None:
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise ValueError(
                f"migrations must be numbered 1, 2, 3, …: found {migration.version} "
                f"({migration.name}) where {expected} belongs"
            )


async def apply_migrations(db: Database, migrations: Sequence[Migration]) -> int:
    """Bring the database to the newest step; returns the resulting version."""
    check_numbering(migrations)
    latest = migrations[-1].version if migrations else 0
    current = await db.schema_version()
    if current > latest:
        raise SchemaTooNew(current, latest, db.location)
    for migration in migrations[current:]:
        async with db.migration() as tx:
            # Re-read under the migration lock: another process may have migrated meanwhile.
            version = await tx.read_schema_version()
            if version > latest:
                raise SchemaTooNew(version, latest, db.location)
            if version >= migration.version:
                continue
            await tx.execute_script(migration.sql)
            await tx.write_schema_version(migration.version)
        log.info("database %s migrated to version %d (%s)", db.location, migration.version,
                 migration.name)
    return latest
