"""The database layer: PRAGMAs, transactions, migrations. Real SQLite files and a real
PostgreSQL server (the `db`, `db_location` and `empty_db_location` fixtures: both), no mocks."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

import asyncpg
import pytest

from store import (
    Dialect,
    Migration,
    SchemaTooNew,
    StoreBusy,
    load_migrations,
    open_database,
)
from store.backend import Statement
from store.batches import GroupCommit
from store.db import connect
from tests.store.schemas import schema_dump, snapshot_path
from tests.store.support import migrated
from tests.support.backends import INTEGRITY_ERRORS, count_trips

_TABLES = {
    Dialect.SQLITE: "SELECT name FROM sqlite_master WHERE type = 'table'",
    Dialect.POSTGRESQL: "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
}


async def tables(location) -> set[str]:
    database = await connect(location)
    try:
        async with database.read() as tx:
            return {r[0] for r in await tx.fetchall(_TABLES[database.dialect])}
    finally:
        await database.close()


async def user_version(location) -> int:
    database = await connect(location)
    try:
        return await database.schema_version()
    finally:
        await database.close()


async def set_user_version(location, version: int) -> None:
    database = await connect(location)
    try:
        async with database.migration() as tx:
            await tx.write_schema_version(version)
    finally:
        await database.close()


async def pragma(db, name: str):
    async with db.transaction() as tx:  # the writing connection's settings
        row = await tx.fetchone(f"PRAGMA {name}")
    return row[0]


@pytest.fixture
async def sqlite_db(tmp_path):
    database = await open_database(tmp_path / "lama.sqlite3")
    yield database
    await database.close()


async def test_wal_mode_is_on_in_the_file(sqlite_db):
    db = sqlite_db
    assert await pragma(db, "journal_mode") == "wal"
    with sqlite3.connect(db.path) as other:  # persistent: any later connection sees it too
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_connection_pragmas_are_set(sqlite_db):
    db = sqlite_db
    assert await pragma(db, "foreign_keys") == 1
    assert await pragma(db, "busy_timeout") == 5000
    assert await pragma(db, "synchronous") == 1  # NORMAL


async def test_open_creates_the_parent_folder(tmp_path):
    path = tmp_path / "a" / "b" / "lama.sqlite3"
    database = await open_database(path)
    await database.close()
    assert path.is_file()


async def test_migrations_from_empty_reach_the_latest_version(empty_db_location):
    database = await open_database(empty_db_location)
    latest = load_migrations(database.dialect)[-1].version
    assert await database.schema_version() == latest
    await database.close()
    assert await user_version(empty_db_location) == latest
    found = await tables(empty_db_location)
    assert {"games", "seats", "moves", "finished_games", "game_results", "guild_settings",
            "user_locales", "meta", "ratings", "tournaments"} <= found
    assert "timers" not in found  # derived from state, never stored (0006)


def test_packaged_migrations_are_numbered_from_one():
    assert [m.version for m in load_migrations()] == list(range(1, len(load_migrations()) + 1))


def test_both_dialects_have_the_same_contiguous_steps():
    sqlite, postgres = load_migrations(Dialect.SQLITE), load_migrations(Dialect.POSTGRESQL)
    assert [(m.version, m.name) for m in postgres] == [(m.version, m.name) for m in sqlite]


async def test_both_dialects_build_the_same_tables_and_columns(postgres_url, tmp_path):
    columns = {}
    for location in (tmp_path / "lama.sqlite3", postgres_url):
        database = await open_database(location)
        async with database.read() as tx:
            found = {}
            for table in sorted(await tables_of(tx)):
                found[table] = await columns_of(tx, table)
        columns[database.dialect] = found
        await database.close()
    assert columns[Dialect.POSTGRESQL] == columns[Dialect.SQLITE]


async def test_the_steps_build_exactly_the_schema_of_the_per_dialect_files(
        empty_db_location, db_backend):
    """The snapshot was dumped from the two trees of per-dialect files (25 steps each) before
    they became one source per step: every object, SQLite's SQL text to the byte, PostgreSQL's
    columns, constraints, indexes, triggers and functions, and the version. A database they
    migrated is therefore at the latest version already, with the schema new ones get."""
    expected = snapshot_path(Dialect(db_backend)).read_text(encoding="utf-8")
    assert await schema_dump(empty_db_location) == expected


async def test_reopen_keeps_data_and_does_not_migrate_again(db_location):
    first = await open_database(db_location)
    async with first.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
    await first.close()
    second = await open_database(db_location)
    async with second.read() as tx:
        row = await tx.fetchone("SELECT value FROM meta WHERE key = 'k'")
    await second.close()
    assert row["value"] == "v"


async def test_a_database_newer_than_the_code_is_refused(db_location):
    await (await open_database(db_location)).close()
    latest = load_migrations()[-1].version
    await set_user_version(db_location, latest + 1)
    with pytest.raises(SchemaTooNew) as caught:
        await open_database(db_location)
    assert caught.value.db_version == latest + 1
    assert caught.value.code_version == latest
    assert "never downgraded" in str(caught.value)


async def test_only_the_missing_steps_run_on_an_older_database(empty_db_location):
    steps = [Migration(1, "one", "CREATE TABLE one (x INTEGER);")]
    await (await open_database(empty_db_location, migrations=steps)).close()
    steps.append(Migration(2, "two", "CREATE TABLE two (x INTEGER);"))
    await (await open_database(empty_db_location, migrations=steps)).close()
    assert await user_version(empty_db_location) == 2
    assert {"one", "two"} <= await tables(empty_db_location)


async def test_a_version_1_database_with_a_game_upgrades_and_keeps_it(empty_db_location):
    await (await migrated(empty_db_location, 1)).close()
    database = await connect(empty_db_location)
    async with database.transaction() as tx:
        await tx.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, created_at, updated_at) "
            "VALUES (1, 2, 3, 'party', 40, 120, 1.5, 0, 0)")
    await database.close()
    database = await open_database(empty_db_location)
    async with database.read() as tx:
        row = await tx.fetchone("SELECT variant FROM games")
    await database.close()
    assert row["variant"] == "party"
    assert await user_version(empty_db_location) == load_migrations()[-1].version


async def test_close_twice_is_harmless(db_location):
    database = await open_database(db_location)
    await database.close()
    await database.close()


async def test_a_failing_step_leaves_the_previous_version_and_nothing_of_itself(
    empty_db_location,
):
    steps = [
        Migration(1, "good", "CREATE TABLE good (x INTEGER);"),
        Migration(2, "bad", "CREATE TABLE half (x INTEGER);\nINSERT INTO nowhere VALUES (1);"),
    ]
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError)):
        await open_database(empty_db_location, migrations=steps)
    assert await user_version(empty_db_location) == 1
    assert "good" in await tables(empty_db_location)
    assert "half" not in await tables(empty_db_location)


async def test_misnumbered_migrations_are_rejected(empty_db_location):
    steps = [Migration(1, "a", "SELECT 1;"), Migration(3, "c", "SELECT 1;")]
    with pytest.raises(ValueError, match="numbered"):
        await open_database(empty_db_location, migrations=steps)


def test_statements_are_split_with_triggers_kept_whole():
    sql = (
        "-- a comment; with a semicolon\nCREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER t_ro BEFORE UPDATE ON t\nBEGIN\n"
        "    SELECT RAISE(ABORT, 'no;');\nEND;\n-- trailing comment\n"
    )
    statements = Migration(1, "x", sql).statements()
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


async def test_transaction_rolls_back_when_the_block_raises(db):
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
            raise RuntimeError("boom")
    async with db.read() as tx:
        assert await tx.fetchone("SELECT * FROM meta") is None


async def test_concurrent_transactions_never_interleave(db):
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('n', '0')")

    async def increment():
        async with db.transaction() as tx:
            # A row read to be changed is read `for_update` (PostgreSQL runs transactions
            # side by side; SQLite one at a time).
            row = await tx.fetchone(f"SELECT value FROM meta WHERE key = 'n'{tx.for_update}")
            await asyncio.sleep(0)  # invite another coroutine in between read and write
            await tx.execute("UPDATE meta SET value = ? WHERE key = 'n'", (str(int(row[0]) + 1),))

    await asyncio.gather(*(increment() for _ in range(20)))
    async with db.read() as tx:
        assert (await tx.fetchone("SELECT value FROM meta WHERE key = 'n'"))[0] == "20"


async def test_a_cancelled_transaction_rolls_back_and_frees_the_lock(db):
    entered = asyncio.Event()

    async def stuck():
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('lost', 'x')")
            entered.set()
            await asyncio.sleep(60)

    task = asyncio.create_task(stuck())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('kept', 'y')")
    async with db.read() as tx:
        keys = [r[0] for r in await tx.fetchall("SELECT key FROM meta")]
    assert keys == ["kept"]


def insert(key: str, value: str = "v") -> Statement:
    return Statement("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))


async def keys(db) -> list[str]:
    async with db.read() as tx:
        return sorted(r[0] for r in await tx.fetchall("SELECT key FROM meta"))


async def test_a_batch_commits_all_its_statements(db):
    done = await db.batch([
        insert("a", "1"), Statement("UPDATE meta SET value = ? WHERE key = 'a'", ("2",),
                                    guard=True),
    ])
    assert done
    async with db.read() as tx:
        assert [tuple(r) for r in await tx.fetchall("SELECT key, value FROM meta")] == [("a", "2")]


async def test_a_batch_whose_guard_changes_nothing_is_undone_whole(db):
    done = await db.batch([
        insert("a"), Statement("UPDATE meta SET value = '2' WHERE key = 'missing'", guard=True),
        insert("b"),
    ])
    assert not done
    assert await keys(db) == []


async def test_a_failing_batch_statement_rolls_the_batch_back_and_raises(db):
    with pytest.raises(INTEGRITY_ERRORS):
        await db.batch([insert("a", "1"), insert("a", "2")])
    async with db.transaction() as tx:  # usable: no transaction left open
        assert await tx.fetchall("SELECT * FROM meta") == []


async def test_a_refused_batch_among_others_undoes_only_itself(db):
    refused = [insert("lost"), Statement("UPDATE meta SET value = 'x' WHERE key = 'none'",
                                         guard=True)]
    done = await asyncio.gather(db.batch([insert("a")]), db.batch(refused),
                                db.batch([insert("b")]))
    assert done == [True, False, True]
    assert await keys(db) == ["a", "b"]


async def test_a_failing_batch_among_others_raises_only_for_itself(db):
    await db.batch([insert("a")])
    outcomes = await asyncio.gather(db.batch([insert("b")]), db.batch([insert("a")]),
                                    db.batch([insert("c")]), return_exceptions=True)
    assert outcomes[0] is True and outcomes[2] is True
    assert isinstance(outcomes[1], INTEGRITY_ERRORS)
    assert await keys(db) == ["a", "b", "c"]


# SQLite: batches waiting together go to the connection's thread in one trip.


async def test_a_batch_is_one_trip_to_the_sqlite_thread(sqlite_db, monkeypatch):
    trips = count_trips(sqlite_db, monkeypatch)
    await sqlite_db.batch([insert(str(n)) for n in range(5)])
    assert len(trips) == 1


async def test_batches_waiting_together_share_one_trip_and_all_commit(sqlite_db, monkeypatch):
    trips = count_trips(sqlite_db, monkeypatch)
    done = await asyncio.gather(*(sqlite_db.batch([insert(f"k{n:02}")]) for n in range(20)))
    assert done == [True] * 20
    assert len(trips) < 20
    assert await keys(sqlite_db) == [f"k{n:02}" for n in range(20)]


async def test_a_batch_cancelled_before_it_is_written_is_not_written(sqlite_db):
    db = sqlite_db
    async with db.transaction():  # the writer waits for the connection meanwhile
        first = asyncio.create_task(db.batch([insert("first")]))
        await asyncio.sleep(0)
        second = asyncio.create_task(db.batch([insert("second")]))
        await asyncio.sleep(0)
        second.cancel()
    assert await first
    assert await keys(db) == ["first"]


async def test_close_writes_the_batches_already_submitted(tmp_path):
    db = await open_database(tmp_path / "lama.sqlite3")
    pending = asyncio.create_task(db.batch([insert("kept")]))
    await asyncio.sleep(0)
    await db.close()
    assert await pending
    reopened = await open_database(tmp_path / "lama.sqlite3")
    assert await keys(reopened) == ["kept"]
    await reopened.close()


# One-statement reads (`Database.fetchone` / `fetchall`): what every move asks the store.


async def test_a_one_statement_read_sees_what_is_committed(db):
    await db.batch([insert("a", "1"), insert("b", "2")])
    assert [tuple(r) for r in await db.fetchall("SELECT key, value FROM meta ORDER BY key")
            ] == [("a", "1"), ("b", "2")]
    row = await db.fetchone("SELECT value FROM meta WHERE key = ?", ("b",))
    assert row is not None and row["value"] == "2"
    assert await db.fetchone("SELECT value FROM meta WHERE key = ?", ("none",)) is None


async def test_a_failing_read_among_others_raises_only_for_itself(db):
    await db.batch([insert("a")])
    outcomes = await asyncio.gather(
        db.fetchone("SELECT key FROM meta"), db.fetchone("SELECT nothing FROM nowhere"),
        db.fetchall("SELECT key FROM meta"), return_exceptions=True)
    assert outcomes[0]["key"] == "a" and [r["key"] for r in outcomes[2]] == ["a"]
    assert isinstance(outcomes[1], Exception)


async def test_a_one_statement_read_is_one_trip_to_the_sqlite_thread(sqlite_db, monkeypatch):
    trips = count_trips(sqlite_db, monkeypatch, reader=True)
    await sqlite_db.fetchone("SELECT value FROM meta WHERE key = ?", ("a",))
    assert len(trips) == 1


async def test_reads_waiting_together_share_one_trip(sqlite_db, monkeypatch):
    """A `read()` block costs a trip for BEGIN, each query and COMMIT, holding the reader
    throughout: under load, one-row reads queued behind each other for seconds."""
    await sqlite_db.batch([insert(f"k{n:02}", str(n)) for n in range(20)])
    trips = count_trips(sqlite_db, monkeypatch, reader=True)
    rows = await asyncio.gather(*(sqlite_db.fetchone(
        "SELECT value FROM meta WHERE key = ?", (f"k{n:02}",)) for n in range(20)))
    assert [row["value"] for row in rows] == [str(n) for n in range(20)]
    assert len(trips) <= 2  # the first alone, then everyone who queued meanwhile


async def test_each_statement_of_a_transaction_is_one_trip_to_the_sqlite_thread(
        sqlite_db, monkeypatch):
    """aiosqlite's cursors cost a trip to open, one to fetch and one to close: a lobby's
    transactions (a join, a start) made three trips per read, with the connection held."""
    trips = count_trips(sqlite_db, monkeypatch)
    async with sqlite_db.transaction() as tx:
        trips.clear()  # BEGIN's
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        await tx.insert("INSERT INTO meta (key, value) VALUES ('b', '2')")
        await tx.fetchone("SELECT value FROM meta WHERE key = 'a'")
        await tx.fetchall("SELECT value FROM meta")
        assert len(trips) == 4
        trips.clear()
    assert len(trips) == 1  # COMMIT's


async def test_a_transactions_begin_travels_with_its_first_statement(sqlite_db, monkeypatch):
    """Every trip is taken with the writer held, and the moves' group commits wait behind
    it: BEGIN costs none of its own."""
    trips = count_trips(sqlite_db, monkeypatch)
    async with sqlite_db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        await tx.fetchone("SELECT value FROM meta WHERE key = 'a'")
    assert len(trips) == 3  # BEGIN and the INSERT, the SELECT, COMMIT
    assert (await sqlite_db.fetchone("SELECT value FROM meta WHERE key = 'a'"))["value"] == "1"


async def test_a_transaction_that_runs_no_statement_costs_no_trip(sqlite_db, monkeypatch):
    trips = count_trips(sqlite_db, monkeypatch)
    async with sqlite_db.transaction():
        pass
    assert trips == []
    assert not sqlite_db._conn.in_transaction


async def test_a_transaction_whose_begin_finds_the_database_locked_fails_as_busy_and_holds_nothing(
        sqlite_db, monkeypatch):
    db = sqlite_db
    async with db.transaction() as tx:  # a short busy timeout, for the test's sake
        await tx.execute("PRAGMA busy_timeout = 50")
    with sqlite3.connect(db.path, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreBusy):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        other.execute("ROLLBACK")
    assert not db._conn.in_transaction
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
    assert (await db.fetchone("SELECT value FROM meta WHERE key = 'a'"))["value"] == "1"


async def test_a_block_that_catches_its_failed_begin_can_save_nothing_more(sqlite_db):
    """Its next statements would each have been saved on their own, outside a transaction."""
    db = sqlite_db
    async with db.transaction() as tx:  # a short busy timeout, for the test's sake
        await tx.execute("PRAGMA busy_timeout = 50")
    with sqlite3.connect(db.path, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(RuntimeError, match="ended"):
            async with db.transaction() as tx:
                with contextlib.suppress(sqlite3.OperationalError):
                    await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
                other.execute("ROLLBACK")
                await tx.execute("INSERT INTO meta (key, value) VALUES ('b', '2')")
    assert await db.fetchone("SELECT value FROM meta WHERE key = 'b'") is None
    assert not db._conn.in_transaction


async def test_a_block_that_catches_its_first_statements_error_goes_on_as_before(sqlite_db):
    """Only a failed BEGIN ends the transaction; a failed first statement leaves it open."""
    db = sqlite_db
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
    async with db.transaction() as tx:
        with contextlib.suppress(sqlite3.IntegrityError):
            await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '2')")
        await tx.execute("INSERT INTO meta (key, value) VALUES ('b', '2')")
    assert (await db.fetchone("SELECT value FROM meta WHERE key = 'b'"))["value"] == "2"
    assert (await db.fetchone("SELECT value FROM meta WHERE key = 'a'"))["value"] == "1"


async def test_a_statement_of_a_transaction_answers_as_before(sqlite_db):
    async with sqlite_db.transaction() as tx:
        assert await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')") == 1
        rowid = await tx.insert("INSERT INTO meta (key, value) VALUES ('b', '2')")
        assert await tx.execute("UPDATE meta SET value = '3' WHERE key IN ('a', 'b')") == 2
        assert await tx.execute("UPDATE meta SET value = '4' WHERE key = 'none'") == 0
        row = await tx.fetchone("SELECT rowid, value FROM meta WHERE key = 'b'")
        assert row is not None and row["rowid"] == rowid and row["value"] == "3"
        assert await tx.fetchone("SELECT value FROM meta WHERE key = 'none'") is None
        assert [r["key"] for r in await tx.fetchall("SELECT key FROM meta ORDER BY key")
                ] == ["a", "b"]


async def test_a_one_statement_read_does_not_wait_for_an_open_write(sqlite_db):
    await sqlite_db.batch([insert("a", "old")])
    async with sqlite_db.transaction() as tx:
        await tx.execute("UPDATE meta SET value = 'new' WHERE key = 'a'")
        row = await asyncio.wait_for(sqlite_db.fetchone("SELECT value FROM meta"), 10)
        assert row["value"] == "old"  # the last commit; the open write is not seen
    assert (await sqlite_db.fetchone("SELECT value FROM meta"))["value"] == "new"


async def test_a_nested_transaction_fails_instead_of_deadlocking(db):
    async with db.transaction():
        with pytest.raises(RuntimeError, match="nested"):
            async with db.transaction():
                pass


async def test_a_transaction_cannot_be_used_after_its_block(db):
    async with db.transaction() as tx:
        pass
    with pytest.raises(RuntimeError, match="ended"):
        await tx.execute("SELECT 1")


async def test_migration_6_drops_the_unused_timers_table_and_keeps_the_games(empty_db_location):
    path = empty_db_location
    before = await migrated(path, 5)
    async with before.transaction() as tx:
        await tx.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, status, created_at, updated_at) "
            "VALUES (1, 2, 3, 'classic', 40, 120, 1, 'lobby', 0, 0)")
        await tx.execute("INSERT INTO timers (game_id, kind, due_at) VALUES (1, 'turn', 9)")
    await before.close()
    assert "timers" in await tables(path)
    await (await migrated(path, 6)).close()
    assert "timers" not in await tables(path)
    database = await connect(path)
    async with database.read() as tx:
        assert [tuple(r) for r in await tx.fetchall("SELECT channel_id FROM games")] == [(2,)]
    await database.close()


_COLUMNS = {
    Dialect.SQLITE: "SELECT name FROM pragma_table_info(?) ORDER BY cid",
    Dialect.POSTGRESQL: "SELECT column_name FROM information_schema.columns "
                        "WHERE table_schema = 'public' AND table_name = ? "
                        "ORDER BY ordinal_position",
}


async def tables_of(tx) -> set[str]:
    names = {r[0] for r in await tx.fetchall(_TABLES[tx.dialect])}
    return names - {"sqlite_sequence", "schema_version"}  # each dialect's bookkeeping


async def columns_of(tx, table: str) -> list[str]:
    """Column names in order; SQLite's implicit rowid is an explicit column in PostgreSQL."""
    rows = await tx.fetchall(_COLUMNS[tx.dialect], (table,))
    return [r[0] for r in rows if r[0] != "rowid"]


async def test_a_writer_cancelled_at_shutdown_leaves_no_batch_waiting_forever():
    blocked = asyncio.Event()

    async def never_done(batches):
        await blocked.wait()

    writes = GroupCommit(never_done, asyncio.Lock())
    first = asyncio.create_task(writes.submit([insert("a")]))
    await asyncio.sleep(0)
    second = asyncio.create_task(writes.submit([insert("b")]))  # queued behind the first
    await asyncio.sleep(0)
    writes._writer.cancel()
    for waiting in (first, second):
        with pytest.raises(asyncio.CancelledError):
            await waiting


# ------------------------------------------------- SQLite: another connection's write lock


async def _short_busy_timeout(db, ms: int = 200) -> None:
    async with db.transaction() as tx:  # the writing connection's
        await tx.execute(f"PRAGMA busy_timeout = {ms}")


async def test_a_lock_held_past_the_busy_timeout_is_store_busy_and_saves_nothing(sqlite_db):
    db = sqlite_db
    await _short_busy_timeout(db)
    other = sqlite3.connect(db.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
    try:
        with pytest.raises(StoreBusy) as raised:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert str(db.path) in str(raised.value)
    async with db.read() as tx:
        assert await tx.fetchone("SELECT 1 FROM meta WHERE key = 'k'") is None
    async with db.transaction() as tx:  # the connection is usable again
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")


async def test_a_read_is_answered_while_another_connection_holds_the_write_lock(sqlite_db):
    db = sqlite_db
    await db.batch([insert("before")])
    other = sqlite3.connect(db.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # e.g. a backup script; held until the read is done
    other.execute("INSERT INTO meta (key, value) VALUES ('uncommitted', 'x')")
    try:
        seen = await keys(db)  # the last commit, not the open write
        assert "before" in seen and "uncommitted" not in seen
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_a_read_does_not_wait_behind_our_own_stalled_write(sqlite_db):
    db = sqlite_db
    await db.batch([insert("before")])
    writing, release = asyncio.Event(), asyncio.Event()

    async def stalled_write():
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('stalled', 'x')")
            writing.set()
            await release.wait()

    writer = asyncio.create_task(stalled_write())
    await writing.wait()
    try:
        seen = await keys(db)
        assert "before" in seen and "stalled" not in seen
    finally:
        release.set()
        await writer
    assert {"before", "stalled"} <= set(await keys(db))


async def test_the_read_connection_cannot_write(sqlite_db):
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        async with sqlite_db.read() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")


async def test_a_lock_released_within_the_busy_timeout_just_waits(sqlite_db):
    db = sqlite_db
    other = sqlite3.connect(db.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(0.3, lambda: (other.execute("ROLLBACK"), other.close()))
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
    async with db.read() as tx:
        assert await tx.fetchone("SELECT 1 FROM meta WHERE key = 'k'") is not None
