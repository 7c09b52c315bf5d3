"""Numbered schema steps, versioned inside the database (`PRAGMA user_version`).

Each step runs in its own transaction together with its version bump, so a crash or an error
leaves the database exactly at the previous version, never half-way.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from store.errors import SchemaTooNew

if TYPE_CHECKING:
    from store.db import Database

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


def load_migrations() -> tuple[Migration, ...]:
    """The packaged steps in store/migrations/, checked to be numbered 1, 2, 3, … exactly."""
    folder = resources.files("store") / "migrations"
    found: list[Migration] = []
    for entry in folder.iterdir():
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
        raise SchemaTooNew(current, latest, db.path)
    for migration in migrations[current:]:
        async with db.transaction() as tx:
            # Re-read under the write lock: another process may have migrated meanwhile.
            row = await tx.fetchone("PRAGMA user_version")
            version = int(row[0]) if row else 0
            if version > latest:
                raise SchemaTooNew(version, latest, db.path)
            if version >= migration.version:
                continue
            for statement in migration.statements():
                await tx.execute(statement)
            # PRAGMA takes no parameters; the version is an int we produced ourselves.
            await tx.execute(f"PRAGMA user_version = {int(migration.version)}")
        log.info("database %s migrated to version %d (%s)", db.path, migration.version,
                 migration.name)
    return latest
