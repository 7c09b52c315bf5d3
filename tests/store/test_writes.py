"""`Database.write(body)`: a write transaction given as a function of its Transaction. On both
backends it is the body's result, committed, or its error, rolled back. SQLite runs the whole
body in its thread in one trip, committed with the batches waiting (issue 14: a `transaction()`
block held the writer for a turn of the event loop per statement, and every move's commit
waited behind it). Real SQLite files and a real PostgreSQL server, no mocks."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

import pytest

from store import StoreBusy, StoreUnwritable, open_database
from store.backend import Statement
from tests.support.backends import INTEGRITY_ERRORS, count_trips


def put(key: str, value: str = "v"):
    async def body(tx):
        await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
        return key
    return body


async def keys(db) -> list[str]:
    return sorted(r["key"] for r in await db.fetchall("SELECT key FROM meta"))


@pytest.fixture
async def sqlite_db(tmp_path):
    database = await open_database(tmp_path / "lama.sqlite3")
    yield database
    await database.close()


# Both backends: what a write means.


async def test_a_write_returns_its_bodys_result_and_commits_what_it_wrote(db):
    async def body(tx):
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        await tx.execute("UPDATE meta SET value = '2' WHERE key = 'a'")
        row = await tx.fetchone("SELECT value FROM meta WHERE key = 'a'")
        return row["value"]

    assert await db.write(body) == "2"
    assert (await db.fetchone("SELECT value FROM meta WHERE key = 'a'"))["value"] == "2"


async def test_a_write_whose_body_raises_saves_nothing_and_raises_it(db):
    class Refused(Exception):
        pass

    async def body(tx):
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        raise Refused

    with pytest.raises(Refused):
        await db.write(body)
    assert await keys(db) == []


async def test_a_write_breaking_a_constraint_saves_nothing_and_raises_the_drivers_error(db):
    await db.write(put("a"))

    async def body(tx):
        await tx.execute("INSERT INTO meta (key, value) VALUES ('b', '1')")
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")

    with pytest.raises(INTEGRITY_ERRORS):
        await db.write(body)
    assert await keys(db) == ["a"]


async def test_a_writes_body_sees_its_own_writes_and_the_new_rows_id(db):
    async def body(tx):
        game_id = await tx.insert(
            "INSERT INTO games (guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, status, created_at, updated_at) "
            "VALUES (1, 2, 3, 'classic', 40, 60, 1.0, 'lobby', 0, 0)")
        row = await tx.fetchone("SELECT channel_id FROM games WHERE id = ?", (game_id,))
        return game_id, row["channel_id"]

    game_id, channel_id = await db.write(body)
    assert channel_id == 2
    assert (await db.fetchone("SELECT id FROM games"))["id"] == game_id


async def test_writes_at_once_each_get_their_own_result_and_all_commit(db):
    results = await asyncio.gather(*(db.write(put(f"k{n:02}")) for n in range(20)))
    assert results == [f"k{n:02}" for n in range(20)]
    assert await keys(db) == results


# SQLite: one trip to the thread, shared with the batches waiting.


async def test_a_write_is_one_trip_to_the_sqlite_thread_however_many_statements(
        sqlite_db, monkeypatch):
    trips = count_trips(sqlite_db, monkeypatch)

    async def body(tx):
        for n in range(8):
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, 'v')", (str(n),))
        await tx.executemany("INSERT INTO meta (key, value) VALUES (?, 'v')", [("x",), ("y",)])
        return len(await tx.fetchall("SELECT key FROM meta"))

    assert await sqlite_db.write(body) == 10
    assert len(trips) == 1


async def test_writes_and_batches_waiting_together_share_one_trip(sqlite_db, monkeypatch):
    trips = count_trips(sqlite_db, monkeypatch)
    batch = Statement("INSERT INTO meta (key, value) VALUES ('batch', 'v')")
    done = await asyncio.gather(sqlite_db.write(put("a")), sqlite_db.batch([batch]),
                                sqlite_db.write(put("b")))
    assert done == ["a", True, "b"]
    assert len(trips) == 1
    assert await keys(sqlite_db) == ["a", "b", "batch"]


async def test_a_failing_write_among_batches_undoes_only_itself(sqlite_db):
    await sqlite_db.write(put("a"))
    outcomes = await asyncio.gather(
        sqlite_db.write(put("b")), sqlite_db.write(put("a")),
        sqlite_db.batch([Statement("INSERT INTO meta (key, value) VALUES ('c', 'v')")]),
        return_exceptions=True)
    assert outcomes[0] == "b" and outcomes[2] is True
    assert isinstance(outcomes[1], sqlite3.IntegrityError)
    assert await keys(sqlite_db) == ["a", "b", "c"]


async def test_a_body_that_awaits_anything_but_its_transaction_is_undone_and_refused(sqlite_db):
    async def body(tx):
        await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
        await asyncio.sleep(0)  # e.g. another store call: it would wait for the event loop
        await tx.execute("INSERT INTO meta (key, value) VALUES ('b', '1')")

    with pytest.raises(RuntimeError, match=r"body.*awaited something other than its transaction"):
        await sqlite_db.write(body)
    assert await keys(sqlite_db) == []
    assert await sqlite_db.write(put("c")) == "c"  # the writer goes on


async def test_a_write_inside_a_transaction_block_is_refused_rather_than_waiting_forever(
        sqlite_db):
    with pytest.raises(RuntimeError, match="inside a transaction"):
        async with sqlite_db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
            await sqlite_db.write(put("b"))
    assert await keys(sqlite_db) == []


async def test_a_write_that_finds_the_database_locked_fails_as_busy_and_saves_nothing(sqlite_db):
    async with sqlite_db.transaction() as tx:  # a short busy timeout, for the test's sake
        await tx.execute("PRAGMA busy_timeout = 50")
    with sqlite3.connect(sqlite_db.path, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreBusy):
            await sqlite_db.write(put("a"))
        other.execute("ROLLBACK")
    assert await keys(sqlite_db) == []
    assert await sqlite_db.write(put("a")) == "a"


async def test_a_transaction_used_after_its_write_ended_is_refused(sqlite_db):
    kept = []

    async def body(tx):
        kept.append(tx)

    await sqlite_db.write(body)
    with pytest.raises(RuntimeError, match="ended"):
        await kept[0].execute("INSERT INTO meta (key, value) VALUES ('a', '1')")
    assert await keys(sqlite_db) == []


async def test_a_write_failing_in_a_group_undoes_all_of_its_statements_and_nothing_else(
        sqlite_db):
    await sqlite_db.write(put("taken"))

    async def two_then_clash(tx):
        await tx.execute("INSERT INTO meta (key, value) VALUES ('first', 'v')")
        await tx.execute("INSERT INTO meta (key, value) VALUES ('second', 'v')")
        await tx.execute("INSERT INTO meta (key, value) VALUES ('taken', 'v')")

    outcomes = await asyncio.gather(sqlite_db.write(put("before")), sqlite_db.write(two_then_clash),
                                    sqlite_db.write(put("after")), return_exceptions=True)
    assert outcomes[0] == "before" and outcomes[2] == "after"
    assert isinstance(outcomes[1], sqlite3.IntegrityError)
    assert await keys(sqlite_db) == ["after", "before", "taken"]


def big(key: str):
    async def body(tx):
        await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, "x" * 200_000))
        return key
    return body


async def test_a_full_disk_fails_every_write_and_batch_of_the_group_as_unwritable(sqlite_db):
    """SQLite undoes the whole transaction when the disk is full: nothing of the group is saved,
    and each caller hears why (the operator's message), not a lost savepoint."""
    async with sqlite_db.transaction() as tx:  # the file may grow by 5 pages, no more
        pages = (await tx.fetchone("PRAGMA page_count"))[0]
        await tx.execute(f"PRAGMA max_page_count = {pages + 5}")
    outcomes = await asyncio.gather(
        sqlite_db.write(put("small")), sqlite_db.write(big("big")),
        sqlite_db.batch([Statement("INSERT INTO meta (key, value) VALUES ('batch', 'v')")]),
        return_exceptions=True)
    assert all(isinstance(outcome, StoreUnwritable) for outcome in outcomes), outcomes
    assert await keys(sqlite_db) == []


async def test_a_full_disk_fails_a_lone_write_as_unwritable(sqlite_db):
    async with sqlite_db.transaction() as tx:
        pages = (await tx.fetchone("PRAGMA page_count"))[0]
        await tx.execute(f"PRAGMA max_page_count = {pages + 5}")
    with pytest.raises(StoreUnwritable):
        await sqlite_db.write(big("big"))
    assert await sqlite_db.write(put("small")) == "small"  # what fits is still saved


async def test_a_write_cancelled_while_it_waits_for_the_writer_saves_nothing(sqlite_db):
    release = asyncio.Event()

    async def hold_the_writer():
        async with sqlite_db.transaction() as tx:
            await tx.execute("INSERT INTO meta (key, value) VALUES ('held', 'v')")
            await release.wait()

    holder = asyncio.create_task(hold_the_writer())
    await asyncio.sleep(0.05)
    waiting = asyncio.create_task(sqlite_db.write(put("cancelled")))
    await asyncio.sleep(0.05)  # queued, the group commit waiting for the writer
    waiting.cancel()
    release.set()
    await holder
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await sqlite_db._writes.drain()
    assert await keys(sqlite_db) == ["held"]


async def test_executemany_as_a_blocks_first_statement_is_one_trip(sqlite_db, monkeypatch):
    trips = count_trips(sqlite_db, monkeypatch)
    async with sqlite_db.transaction() as tx:
        await tx.executemany("INSERT INTO meta (key, value) VALUES (?, 'v')", [("a",), ("b",)])
    assert len(trips) == 2  # BEGIN with the statements, then COMMIT
    assert await keys(sqlite_db) == ["a", "b"]


async def test_a_body_that_catches_its_full_disk_can_save_nothing_more(sqlite_db):
    """SQLite rolled the transaction back: the body's next statements would otherwise each be
    saved on their own, while its caller heard that nothing was."""
    async with sqlite_db.transaction() as tx:
        pages = (await tx.fetchone("PRAGMA page_count"))[0]
        await tx.execute(f"PRAGMA max_page_count = {pages + 5}")

    async def catches(tx):
        with contextlib.suppress(sqlite3.OperationalError):
            await tx.execute("INSERT INTO meta (key, value) VALUES ('big', ?)", ("x" * 200_000,))
        await tx.execute("INSERT INTO meta (key, value) VALUES ('after', 'v')")

    with pytest.raises(StoreUnwritable):
        await sqlite_db.write(catches)
    assert await keys(sqlite_db) == []
