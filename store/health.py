"""Whether the database can be written, checked when it opens, and what SQLite's failures
mean for the people who run the bot.

The bot used to start on a read-only database, restore every game and then answer each move
with a generic error. Now `open_database` proves a write first (a rolled-back header write)
and refuses with `DatabaseUnusable`, one line naming the path and the fix. While running, a
lock held past the busy timeout becomes `StoreBusy` (try again) and a database that stopped
taking writes becomes `StoreUnwritable`, so hosting and cogs can answer players plainly.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from store.errors import DatabaseUnusable, StoreBusy, StoreUnwritable

BUSY_CODES = {"SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_BUSY_SNAPSHOT", "SQLITE_BUSY_RECOVERY"}
UNWRITABLE_CODES = ("SQLITE_READONLY", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_CANTOPEN")


def _code(error: BaseException) -> str:
    return str(getattr(error, "sqlite_errorname", "") or "")


def is_busy(error: BaseException) -> bool:
    return isinstance(error, sqlite3.OperationalError) and _code(error) in BUSY_CODES


def runtime_error(error: BaseException, path: Path) -> Exception | None:
    """The store's typed error for an SQLite failure while running, or None (a bug)."""
    if not isinstance(error, sqlite3.OperationalError):
        return None
    if is_busy(error):
        return StoreBusy(path)
    if _code(error).startswith(UNWRITABLE_CODES):
        return StoreUnwritable(path, str(error))
    return None


def unusable(path: Path, error: BaseException) -> DatabaseUnusable | None:
    """What an error while opening means to the operator; None if it is not about access."""
    if isinstance(error, StoreBusy | StoreUnwritable) and error.__cause__ is not None:
        error = error.__cause__  # a migration's write, already typed by the transaction
    path = path.resolve()
    folder, fix = path.parent, _fix(path)
    code = _code(error)
    if isinstance(error, PermissionError):
        return DatabaseUnusable(path, f"permission denied ({error.strerror})", fix)
    if code == "SQLITE_READONLY_DIRECTORY" or (
        code.startswith("SQLITE_CANTOPEN") and folder.exists() and not _writable(folder)
    ):
        return DatabaseUnusable(path, f"its folder {folder} is read-only", fix)
    if code.startswith("SQLITE_READONLY"):
        return DatabaseUnusable(path, "the file is read-only", fix)
    if code.startswith("SQLITE_CANTOPEN"):
        return DatabaseUnusable(path, "it cannot be opened (no such folder?)", fix)
    if is_busy(error):
        return DatabaseUnusable(
            path, "another program holds its write lock (is a second LamaBot running on it?)",
            "stop the other program, or give each bot its own DATABASE_PATH")
    return None


def check_folder(path: Path) -> None:
    """A new database needs a folder it can create files in: say so before SQLite tries."""
    folder = path.resolve().parent
    if folder.is_dir() and not path.exists() and not _writable(folder):
        raise DatabaseUnusable(path.resolve(), f"its folder {folder} is read-only", _fix(path))


def _fix(path: Path) -> str:
    path = path.resolve()
    return (f"let the user running the bot write {path.parent} and {path.name} (SQLite keeps "
            f"{path.name}-wal and -shm beside it), or set DATABASE_PATH to a writable place")


def _writable(folder: Path) -> bool:
    probe = folder / ".lamabot-write-probe"
    try:
        probe.touch()
        probe.unlink()
    except OSError:
        return False
    return True


async def prove_writable(db: Any) -> None:
    """Write the header (the schema version, unchanged): SQLite reports a read-only file only
    when something is written, so reading alone would not tell."""
    async with db.transaction() as tx:
        await tx.write_schema_version(await tx.read_schema_version())
