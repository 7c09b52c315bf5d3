"""Reads side by side (issue 33): a few read connections on either backend (SQLite's
read-only connections, each with its thread; PostgreSQL's read pool), so a slow read holds
its own connection and no other read, and never a write. Real databases, both backends."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import threading

import asyncpg
import pytest

from store import open_database
from store.backend import Statement
from tests.support.backends import HeldReads, gated_read, value_of


@pytest.fixture
async def sqlite_db(tmp_path):
    database = await open_database(tmp_path / "lama.sqlite3")
    yield database
    await database.close()


READ_ONLY_REFUSALS = (sqlite3.OperationalError, asyncpg.ReadOnlySQLTransactionError)


def insert(key: str, value: str = "v") -> Statement:
    return Statement("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))


async def test_there_are_several_read_connections(db):
    assert db.read_connections >= 2


async def test_a_read_held_open_does_not_hold_up_other_reads(db):
    await db.batch([insert("a", "1")])
    held = HeldReads(db, 1, "a")
    await held.all_holding()
    try:
        async with asyncio.timeout(10):  # waited forever behind the one reader's lock
            assert (await db.fetchone("SELECT value FROM meta WHERE key = 'a'"))["value"] == "1"
            async with db.read() as tx:
                assert await value_of(tx, "a") == "1"
    finally:
        await held.release()
    assert held.seen == ["1"]


async def test_a_slow_statement_holds_up_no_read_that_comes_after_it(db, db_location):
    await db.batch([insert("a", "1")])
    async with gated_read(db, db_location) as gate:
        slow = asyncio.create_task(db.fetchone(gate.sql))
        await gate.started()
        async with asyncio.timeout(10):
            quick = await asyncio.gather(
                *(db.fetchone("SELECT value FROM meta WHERE key = 'a'") for _ in range(5)))
            async with db.read() as tx:
                assert await value_of(tx, "a") == "1"
        assert [row["value"] for row in quick] == ["1"] * 5
        assert not slow.done()  # still reading, on its own connection
        await gate.open()
        async with asyncio.timeout(10):
            assert (await slow)["opened"] == 1


async def test_every_read_connection_busy_holds_up_no_write(db):
    await db.batch([insert("a", "old")])
    held = HeldReads(db, db.read_connections, "a")
    await held.all_holding()
    try:
        async with asyncio.timeout(10):
            assert await db.batch([Statement("UPDATE meta SET value = 'new' WHERE key = 'a'")])
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('b', 'new')")
    finally:
        await held.release()
    # each held its snapshot: the commits made meanwhile are not in it
    assert held.seen == held.seen_at_end == ["old"] * db.read_connections
    async with db.read() as tx:
        assert [await value_of(tx, "a"), await value_of(tx, "b")] == ["new", "new"]


async def test_every_read_connection_sees_each_commit(db):
    """Reads on all the connections at once, after each of several commits."""
    await db.batch([insert("a", "0")])
    for n in range(1, 4):
        await db.batch([Statement("UPDATE meta SET value = ? WHERE key = 'a'", (str(n),))])
        held = HeldReads(db, db.read_connections, "a")  # one on each connection
        await held.all_holding()
        await held.release()
        one_statement = await asyncio.gather(
            *(db.fetchone("SELECT value FROM meta WHERE key = 'a'") for _ in range(8)))
        assert held.seen == [str(n)] * db.read_connections
        assert [row["value"] for row in one_statement] == [str(n)] * 8


@pytest.mark.parametrize("how", ["fetchall", "read"])
async def test_no_read_connection_can_write(db, how):
    with pytest.raises(READ_ONLY_REFUSALS):
        if how == "fetchall":
            await db.fetchall("INSERT INTO meta (key, value) VALUES ('k', 'v') RETURNING key")
        else:
            async with db.read() as tx:
                await tx.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
    async with db.read() as tx:
        assert await value_of(tx, "k") is None


async def test_a_read_cancelled_while_it_waits_for_a_connection_takes_none(db):
    await db.batch([insert("a", "1")])
    held = HeldReads(db, db.read_connections, "a")
    await held.all_holding()
    waiting = asyncio.create_task(db.fetchone("SELECT value FROM meta WHERE key = 'a'"))
    await asyncio.sleep(0.05)
    waiting.cancel()
    await held.release()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    async with asyncio.timeout(10):  # every connection came back
        held = HeldReads(db, db.read_connections, "a")
        await held.all_holding()
        await held.release()
    assert held.seen == ["1"] * db.read_connections


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a niceness per thread")
async def test_sqlites_read_threads_yield_the_cores_to_the_loop_and_the_writer(sqlite_db):
    from store.sqlite_reads import READ_NICENESS
    from store.thread_calls import call_in_thread

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    loop = niceness()
    writer = await call_in_thread(sqlite_db._conn, niceness)
    readers = [await call_in_thread(conn, niceness) for conn in sqlite_db._readers.connections]
    assert writer == loop
    assert readers == [min(19, loop + READ_NICENESS)] * sqlite_db.read_connections


async def test_a_read_blocks_statements_let_the_event_loop_run_meanwhile(sqlite_db):
    """A read block is awaited, never waited for blocked as the writer's quick statements
    are (store/thread_calls.py): its thread runs below the loop, and while a burst of boards
    was made each statement outlasted the blocking wait, the loop (and the moves) standing
    still for it."""
    others_ran: list[int] = []
    loop = asyncio.get_running_loop()
    async with sqlite_db.read() as tx:
        for statement in range(2):  # the first, which begins the block, and one after
            loop.call_soon(others_ran.append, statement)
            await tx.fetchone("SELECT 1")
    assert others_ran == [0, 1]


async def test_a_writers_quick_statement_is_still_read_without_a_turn_of_the_loop(
        sqlite_db, monkeypatch):
    from weakref import WeakKeyDictionary

    from store import thread_calls
    from store.sqlite_transactions import SqliteTransaction

    # however slow the machine: the wait outlasts the statement, and no earlier slow call
    # has the connection held off
    monkeypatch.setattr(SqliteTransaction, "_blocking_s", 10.0)
    monkeypatch.setattr(thread_calls, "_held_off", WeakKeyDictionary())
    others_ran: list[bool] = []
    async with sqlite_db.transaction() as tx:
        asyncio.get_running_loop().call_soon(others_ran.append, True)
        await tx.fetchone("SELECT 1")
        assert others_ran == []
