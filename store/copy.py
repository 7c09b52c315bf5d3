"""Copy a whole LamaBot database into an empty one: from the SQLite file of one process to the
PostgreSQL database that several share (or back), with every game, move, result, rating,
season, tournament and setting as it was.

    python -m store.copy data/lama.sqlite3 postgresql://lamabot:secret@db/lamabot

Stop the bot first: the copy reads one snapshot of the source, and moves committed after it
would be missing. It refuses while a bot runs on either database (each bot process holds the
database's running mark, `Database.hold_running`: a flock beside a SQLite file, an advisory
lock on PostgreSQL), and a bot started during the copy refuses to start. Both databases are
brought to the code's schema first, as the bot does when it starts. The destination must hold
no games yet, and it is written in one transaction: a copy that fails leaves it as it was.
Ids are kept, so buttons and links made before the move (they name games and tournaments by
id, and the database by the identity in `meta`) keep working there, and the destination
numbers new games and tournaments after the copied ones. The source gets a new identity: if
it is ever started again, it refuses those buttons politely rather than applying them to a
game of its own with the same number.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from store.backend import Database, Dialect, Row, Transaction
from store.db import Location, open_database
from store.postgres import is_postgres_url
from store.settings import IDENTITY_KEY, new_identity

URL_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")  # a mistyped URL is no SQLite file name
PAGE = 2000  # rows read and written at a time: memory stays flat on big tables


@dataclass(frozen=True)
class CopiedTable:
    name: str
    key: tuple[str, ...]  # the order rows are read in, page by page; () reads the whole table
    numbered: tuple[str, ...] = ()  # columns the destination numbers itself, in read order


# In an order where every row's references are copied before it (games.rematch_of names an
# older game: ids ascend). A test checks this names every table of the schema.
TABLES = (
    CopiedTable("meta", ("key",)),
    CopiedTable("guild_settings", ("guild_id",)),
    CopiedTable("user_locales", ("user_id",)),
    CopiedTable("user_notify", ("user_id",)),
    CopiedTable("web_sites", ("guild_id",)),
    CopiedTable("games", ("id",)),
    CopiedTable("seats", ("game_id", "seat")),
    CopiedTable("moves", ("game_id", "seq")),
    CopiedTable("render_outbox", ("game_id", "seq")),  # a row per unshown move
    CopiedTable("round_tables", ("game_id", "round_number")),
    CopiedTable("finished_games", ("game_id",)),
    CopiedTable("game_results", ("game_id", "seat")),
    CopiedTable("seasons", ("guild_id", "number")),
    CopiedTable("ratings", ()),  # no key: partial unique indexes; a row per rated player
    # A rerate replays rating changes in the order they were written (`rowid`, SQLite's
    # implicit one, PostgreSQL's identity column): copied in that order, renumbered.
    CopiedTable("rating_changes", ("rowid",), numbered=("rowid",)),
    CopiedTable("results_versions", ("guild_id",)),
    CopiedTable("tournaments", ("id",)),
    CopiedTable("tournament_entries", ("tournament_id", "entry")),
    CopiedTable("tournament_tables", ("tournament_id", "round", "table_no")),
)
# Tables whose ids buttons and links carry: never reused, also after the move.
NUMBERED_BY_ID = ("games", "tournaments")
# Bookkeeping of each database itself, never copied.
OWN_TABLES = frozenset({"schema_version", "sqlite_sequence"})


class CopyRefused(Exception):
    """The copy would lose or mix data: nothing was written."""


@dataclass(frozen=True)
class CopyReport:
    rows: dict[str, int]  # table -> rows copied
    seconds: float


async def copy_database(source: Database, destination: Database) -> CopyReport:
    """Copy every row of `source` into the empty `destination`, in one transaction."""
    started = time.perf_counter()
    rows: dict[str, int] = {}
    async with source.read() as reader, destination.transaction() as writer:
        await _refuse_unless_empty(writer)
        for table in TABLES:
            rows[table.name] = await _copy_table(reader, writer, table)
        for name in NUMBERED_BY_ID:
            await set_next_id(writer, name, await next_id(reader, name))
    await _hand_over_identity(source)
    return CopyReport(rows, time.perf_counter() - started)


async def _hand_over_identity(source: Database) -> None:
    """The copy carries the database's identity (buttons name it); the source gets a new one.
    Started again, the old bot then refuses buttons posted before the move, instead of
    applying them to its own game of the same number after the two have numbered apart."""
    async with source.transaction() as tx:
        await tx.execute("UPDATE meta SET value = ? WHERE key = ?",
                         (new_identity(), IDENTITY_KEY))


async def _refuse_unless_empty(tx: Transaction) -> None:
    for table in TABLES:
        if table.name == "meta":  # a bot started on it once wrote its identity: replaced
            continue
        row = await tx.fetchone(f"SELECT COUNT(*) AS n FROM {table.name}")
        if row is not None and row["n"]:
            rows = "1 row" if row["n"] == 1 else f"{row['n']:,} rows"
            raise CopyRefused(
                f"the destination already holds data ({rows} in {table.name}): "
                "copy into a new, empty database"
            )


async def _copy_table(reader: Transaction, writer: Transaction, table: CopiedTable) -> int:
    columns = await table_columns(writer, table.name)
    theirs = await table_columns(reader, table.name)
    if set(columns) - set(table.numbered) != set(theirs) - set(table.numbered):
        raise CopyRefused(f"the two databases' {table.name} tables differ: "
                          "run the same LamaBot version on both")
    written = [c for c in columns if c not in table.numbered]
    count = 0
    async for page in _pages(reader, table, [*table.numbered, *written]):
        rows = [_values(row, written) for row in page]
        if table.name == "meta":  # replaces what a bot started on it once wrote
            await writer.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value", rows)
        else:
            await writer.load(table.name, written, rows)
        count += len(page)
    return count


async def _pages(tx: Transaction, table: CopiedTable, columns: Sequence[str]
                 ) -> AsyncIterator[list[Row]]:
    """The table's rows in key order, PAGE at a time (keyset paging: each page starts after
    the last key read, so a big table costs no more per page than a small one)."""
    select = f"SELECT {', '.join(dict.fromkeys([*table.key, *columns]))} FROM {table.name}"
    if not table.key:
        yield await tx.fetchall(select)
        return
    order = ", ".join(table.key)
    after: tuple | None = None
    while True:
        if after is None:
            page = await tx.fetchall(f"{select} ORDER BY {order} LIMIT {PAGE}")
        else:
            marks = ", ".join("?" * len(after))
            page = await tx.fetchall(
                f"{select} WHERE ({order}) > ({marks}) ORDER BY {order} LIMIT {PAGE}", after)
        if not page:
            return
        yield page
        after = tuple(page[-1][k] for k in table.key)


def _values(row: Row, columns: Sequence[str]) -> tuple:
    return tuple(row[c] for c in columns)


async def table_columns(tx: Transaction, table: str) -> list[str]:
    """The table's columns in their order (SQLite's implicit rowid not among them)."""
    if tx.dialect is Dialect.SQLITE:
        rows = await tx.fetchall(f"PRAGMA table_info({table})")
        return [r["name"] for r in rows]
    rows = await tx.fetchall(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
        (table,))
    return [r["column_name"] for r in rows]


async def tables_of(tx: Transaction) -> set[str]:
    """Every table of the database's schema."""
    if tx.dialect is Dialect.SQLITE:
        rows = await tx.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {r["name"] for r in rows}
    rows = await tx.fetchall(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")
    return {r["table_name"] for r in rows}


async def next_id(tx: Transaction, table: str) -> int:
    """The id the database gives the table's next row: past every id it ever gave, also of
    rows gone since (SQLite's AUTOINCREMENT and PostgreSQL's sequence remember them)."""
    row = await tx.fetchone(f"SELECT COALESCE(MAX(id), 0) AS last FROM {table}")
    last = row["last"] if row else 0
    if tx.dialect is Dialect.SQLITE:
        given = await tx.fetchone("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,))
    else:
        given = await tx.fetchone(
            "SELECT last_value AS seq FROM pg_sequences "
            "WHERE format('%I.%I', schemaname, sequencename) = pg_get_serial_sequence(?, 'id')",
            (table,))
    return max(last, (given["seq"] if given else None) or 0) + 1


async def set_next_id(tx: Transaction, table: str, next_value: int) -> None:
    """Number the table's next row `next_value` (ids given explicitly move neither SQLite's
    AUTOINCREMENT counter below its largest id, nor PostgreSQL's sequence at all)."""
    if next_value <= 1:
        return
    if tx.dialect is Dialect.POSTGRESQL:
        await tx.execute("SELECT setval(pg_get_serial_sequence(?, 'id'), ?)",
                         (table, next_value - 1))
        return
    changed = await tx.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?",
                               (next_value - 1, table))
    if not changed:
        await tx.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)",
                         (table, next_value - 1))


async def copy(source: Location, destination: Location) -> CopyReport:
    """Open both databases (migrated to this code's schema) and copy, each held alone: never
    while a bot runs on either (`alone`)."""
    reader = await open_database(source)
    try:
        async with alone(reader):
            writer = await open_database(destination)
            try:
                async with alone(writer):
                    return await copy_database(reader, writer)
            finally:
                await writer.close()
    finally:
        await reader.close()


@asynccontextmanager
async def alone(db: Database) -> AsyncIterator[None]:
    """No bot runs on `db` (none holds its running mark: bot.py), and none starts until the
    copy is done. A bot on the source would commit moves after the copy's snapshot, which the
    copy would miss; one on the destination would number games as the copy brings its own."""
    held = await db.hold_running(alone=True)
    if held is None:
        raise CopyRefused(f"a LamaBot process runs on {db.location}: stop every bot using "
                          "it first (what they commit meanwhile would be missing)")
    try:
        yield
    finally:
        await held.release()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m store.copy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="a SQLite file or a postgresql:// URL, to read")
    parser.add_argument("destination", help="a SQLite file or a postgresql:// URL, empty")
    args = parser.parse_args(argv)
    for location in (args.source, args.destination):
        if not is_postgres_url(location) and URL_LIKE.match(location):
            parser.error(f"{location} is neither a file nor a postgresql://… URL")
    if not is_postgres_url(args.source) and not Path(args.source).is_file():
        parser.error(f"no database at {args.source}")
    try:
        report = asyncio.run(copy(args.source, args.destination))
    except CopyRefused as refused:
        print(f"Nothing copied: {refused}.", file=sys.stderr)
        raise SystemExit(2) from refused
    for name, count in report.rows.items():
        print(f"{name:>20}: {count:>9,} rows")
    print(f"Copied in {report.seconds:.1f} s.")


if __name__ == "__main__":
    main()
