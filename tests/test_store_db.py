"""The database layer: PRAGMAs, transactions, migrations. Real SQLite files, no mocks."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from store import Migration, SchemaTooNew, load_migrations, open_database


def tables(path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def user_version(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


async def pragma(db, name: str):
    async with db.read() as tx:
        row = await tx.fetchone(f"PRAGMA {name}")
    return row[0]


async def test_wal_mode_is_on_in_the_file(db):
    assert await pragma(db, "journal_mode") == "wal"
    with sqlite3.connect(db.path) as other:  # persistent: any later connection sees it too
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_connection_pragmas_are_set(db):
    assert await pragma(db, "foreign_keys") == 1
    assert await pragma(db, "busy_timeout") == 5000
    assert await pragma(db, "synchronous") == 1  # NORMAL


async def test_open_creates_the_parent_folder(tmp_path):
    path = tmp_path / "a" / "b" / "lama.sqlite3"
    database = await open_database(path)
    await database.close()
    assert path.is_file()


async def test_migrations_from_empty_reach_the_latest_version(tmp_path):
    path = tmp_path / "lama.sqlite3"
    database = await open_database(path)
    latest = load_migrations()[-1].version
    assert await database.schema_version() == latest
    await database.close()
    assert user_version(path) == latest
    assert {"games", "seats", "moves", "finished_games", "game_results",
            "guild_settings", "user_locales", "meta"} <= tables(path)
    assert "timers" not in tables(path)  # derived from state, never stored (0006)


def test_packaged_migrations_are_numbered_from_one():
    assert [m.version for m in load_migrations()] == list(range(1, len(load_migrations()) + 1))


async def test_reopen_keeps_data_and_does_not_migrate_again(tmp_path):
    path = tmp_path / "lama.sqlite3"
    first = await open_database(path)
    async with first.transaction() as tx:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
    await first.close()
    second = await open_database(path)
    async with second.read() as tx:
        row = await tx.fetchone("SELECT value FROM meta WHERE key = 'k'")
    await second.close()
    assert row["value"] == "v"


async def test_a_database_newer_than_the_code_is_refused(tmp_path):
    path = tmp_path / "lama.sqlite3"
    await (await open_database(path)).close()
    latest = load_migrations()[-1].version
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {latest + 1}")
    with pytest.raises(SchemaTooNew) as caught:
        await open_database(path)
    assert caught.value.db_version == latest + 1
    assert caught.value.code_version == latest
    assert "never downgraded" in str(caught.value)


async def test_only_the_missing_steps_run_on_an_older_database(tmp_path):
    path = tmp_path / "lama.sqlite3"
    steps = [Migration(1, "one", "CREATE TABLE one (x INTEGER);")]
    await (await open_database(path, migrations=steps)).close()
    steps.append(Migration(2, "two", "CREATE TABLE two (x INTEGER);"))
    await (await open_database(path, migrations=steps)).close()
    assert user_version(path) == 2
    assert {"one", "two"} <= tables(path)


async def test_a_version_1_database_with_a_game_upgrades_and_keeps_it(tmp_path):
    path = tmp_path / "lama.sqlite3"
    await (await open_database(path, migrations=load_migrations()[:1])).close()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, created_at, updated_at) "
            "VALUES (1, 2, 3, 'party', 40, 120, 1.5, 0, 0)")
    database = await open_database(path)
    async with database.read() as tx:
        row = await tx.fetchone("SELECT variant FROM games")
    await database.close()
    assert row["variant"] == "party"
    assert user_version(path) == load_migrations()[-1].version


async def test_close_twice_is_harmless(tmp_path):
    database = await open_database(tmp_path / "lama.sqlite3")
    await database.close()
    await database.close()


async def test_a_failing_step_leaves_the_previous_version_and_nothing_of_itself(tmp_path):
    path = tmp_path / "lama.sqlite3"
    steps = [
        Migration(1, "good", "CREATE TABLE good (x INTEGER);"),
        Migration(2, "bad", "CREATE TABLE half (x INTEGER);\nINSERT INTO nowhere VALUES (1);"),
    ]
    with pytest.raises(sqlite3.OperationalError):
        await open_database(path, migrations=steps)
    assert user_version(path) == 1
    assert "good" in tables(path)
    assert "half" not in tables(path)


async def test_misnumbered_migrations_are_rejected(tmp_path):
    steps = [Migration(1, "a", "SELECT 1;"), Migration(3, "c", "SELECT 1;")]
    with pytest.raises(ValueError, match="numbered"):
        await open_database(tmp_path / "lama.sqlite3", migrations=steps)


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
            row = await tx.fetchone("SELECT value FROM meta WHERE key = 'n'")
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


async def test_migration_6_drops_the_unused_timers_table_and_keeps_the_games(tmp_path):
    path = tmp_path / "lama.sqlite3"
    steps = load_migrations()
    before = await open_database(path, migrations=steps[:5])
    async with before.transaction() as tx:
        await tx.execute(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, status, created_at, updated_at) "
            "VALUES (1, 2, 3, 'classic', 40, 120, 1, 'lobby', 0, 0)")
        await tx.execute("INSERT INTO timers (game_id, kind, due_at) VALUES (1, 'turn', 9)")
    await before.close()
    assert "timers" in tables(path)
    await (await open_database(path, migrations=steps[:6])).close()
    assert "timers" not in tables(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT channel_id FROM games").fetchall() == [(2,)]
