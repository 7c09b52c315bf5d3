"""The web site's pages read anew read in the background (store/background.py): on SQLite, in
reader processes of their own (store/read_process.py), so a crowd of such pages never keeps a
move waiting for a core or for the interpreter's lock (issue 33). Discord's reads and the
games' never wait for them, nor they for Discord's. How such a reader reads: in
tests/store/test_reader_processes.py."""

from __future__ import annotations

import asyncio
import os

import pytest

from store import open_database
from store.background import (
    BACKGROUND_READERS,
    background_readers,
    background_reads,
    foreground_context,
    in_background,
    usable_cores,
)
from tests.support.backends import HeldReads


@pytest.fixture
async def sqlite_db(tmp_path):
    database = await open_database(tmp_path / "lama.sqlite3")
    yield database
    await database.close()


async def reads_at_once(db) -> None:
    """A one-statement read and a read() block, each answered without waiting for another."""
    async with asyncio.timeout(10):
        assert len(await db.fetchall("SELECT 1 AS one")) == 1
        async with db.read() as tx:
            assert await tx.fetchone("SELECT 1 AS one") is not None


async def test_a_background_read_takes_none_of_discords_connections(sqlite_db):
    held = HeldReads(sqlite_db, sqlite_db.read_connections, "schema_version")
    try:
        await held.all_holding()  # every foreground connection busy
        with background_reads():
            await reads_at_once(sqlite_db)
    finally:
        await held.release()


async def test_discords_reads_never_wait_for_the_background(sqlite_db):
    with background_reads():
        held = HeldReads(sqlite_db, BACKGROUND_READERS, "schema_version")
    try:
        await held.all_holding()  # every reader process busy
        await reads_at_once(sqlite_db)
    finally:
        await held.release()


async def test_the_background_ends_with_its_block_and_reaches_the_tasks_started_in_it():
    async def asked() -> bool:
        return in_background()

    with background_reads():
        started_inside = asyncio.create_task(asked())
        in_the_foreground = asyncio.create_task(asked(), context=foreground_context())
        assert in_background()
    assert not in_background()
    assert await started_inside and not await in_the_foreground


@pytest.mark.parametrize(("cores", "connections"),
                         [(1, 1), (2, 1), (3, 1), (4, 2), (64, 2)])
async def test_the_background_readers_are_half_the_cores_at_least_one_and_at_most_two(
        cores, connections):
    """Each keeps a core's worth of pages coming to the event loop while a crowd asks."""
    assert background_readers(cores) == connections


async def test_the_cores_counted_are_those_this_process_may_use(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert usable_cores() == 4
