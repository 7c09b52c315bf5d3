"""SQLite's WAL checkpoints run on a connection of their own, never inside a commit
(store/wal_checkpoints.py). Real SQLite files, no mocks."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from store import open_database
from store.wal_checkpoints import WalCheckpoints

PAGE = 4096


@pytest.fixture
def checkpoints_every(monkeypatch):
    def set_every(seconds: float) -> None:
        monkeypatch.setattr("store.wal_checkpoints.EVERY_S", seconds)
    return set_every


async def write_pages(db, pages: int, *, per_commit: int) -> None:
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE IF NOT EXISTS filler (blob BLOB)")
    for _ in range(pages // per_commit):
        async with db.transaction() as tx:
            for _ in range(per_commit):
                await tx.execute("INSERT INTO filler VALUES (randomblob(?))", (PAGE - 200,))


async def until(condition, seconds: float = 30.0) -> None:
    """Wait until `condition()` holds (a background round), at most `seconds`."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


def wal_size(db) -> int:
    wal = db.path.with_name(db.path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


async def test_the_writer_never_checkpoints_inside_a_commit(tmp_path):
    db = await open_database(tmp_path / "lama.sqlite3")
    try:
        async with db.transaction() as tx:
            row = await tx.fetchone("PRAGMA wal_autocheckpoint")
        assert row[0] == 0
    finally:
        await db.close()


async def test_commits_past_a_thousand_pages_leave_the_wal_to_the_checkpoints(
    tmp_path, checkpoints_every
):
    checkpoints_every(3600)  # no round during the test
    db = await open_database(tmp_path / "lama.sqlite3")
    try:
        await write_pages(db, 2400, per_commit=20)
        # SQLite's own checkpoint (at 1,000 pages) would have restarted the WAL.
        assert wal_size(db) > 2000 * PAGE
    finally:
        await db.close()


async def test_a_round_copies_the_wal_into_the_database_file_while_the_store_is_idle(
    tmp_path, checkpoints_every
):
    checkpoints_every(0.01)
    db = await open_database(tmp_path / "lama.sqlite3")
    try:
        before = db.path.stat().st_size
        await write_pages(db, 300, per_commit=300)  # far below SQLite's own 1,000 pages
        await until(lambda: db.path.stat().st_size >= before + 300 * PAGE)
    finally:
        await db.close()


async def test_a_round_copies_nothing_twice(tmp_path, checkpoints_every):
    checkpoints_every(3600)
    db = await open_database(tmp_path / "lama.sqlite3")
    checkpoints = await WalCheckpoints.start(db.path)
    try:
        await write_pages(db, 50, per_commit=50)
        first = await checkpoints.run_once()
        again = await checkpoints.run_once()
        assert first.copied_pages == first.wal_pages >= 50
        assert (again.wal_pages, again.copied_pages) == (first.wal_pages, first.wal_pages)
        assert not first.busy and not again.busy
    finally:
        await checkpoints.close()
        await db.close()


async def test_a_failed_round_is_logged_and_the_rounds_go_on(
    tmp_path, checkpoints_every, monkeypatch, caplog
):
    checkpoints_every(0.01)
    real_run_once = WalCheckpoints.run_once
    calls = []

    async def failing_once(self):
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.OperationalError("disk I/O error")
        return await real_run_once(self)

    monkeypatch.setattr(WalCheckpoints, "run_once", failing_once)
    db = await open_database(tmp_path / "lama.sqlite3")
    try:
        with caplog.at_level(logging.ERROR, logger="store.wal_checkpoints"):
            await until(lambda: len(calls) >= 3)
        assert "WAL checkpoint failed" in caplog.text
    finally:
        await db.close()


async def test_closing_the_store_stops_its_rounds_and_removes_the_wal(
    tmp_path, checkpoints_every
):
    checkpoints_every(0.01)
    db = await open_database(tmp_path / "lama.sqlite3")
    await write_pages(db, 40, per_commit=20)
    await db.close()
    assert not db.path.with_name(db.path.name + "-wal").exists()
    assert [t for t in asyncio.all_tasks() if t.get_name() == "wal-checkpoints"] == []
    with sqlite3.connect(db.path) as other:
        assert other.execute("SELECT COUNT(*) FROM filler").fetchone()[0] == 40
