"""SQLite's WAL checkpoints run on a connection of their own, not inside a commit, and the
WAL still starts over under steady commits (store/wal_checkpoints.py). Real SQLite files."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from store import open_database
from store.backend import Statement
from store.wal_checkpoints import BACKSTOP_PAGES, WalCheckpoints

PAGE = 4096


@pytest.fixture
def checkpoints_every(monkeypatch):
    def set_every(seconds: float) -> None:
        monkeypatch.setattr("store.wal_checkpoints.EVERY_S", seconds)
    return set_every


@pytest.fixture
async def open_store(tmp_path):
    """Opens the test's database (after the test set its rounds); closed at the end."""
    opened = []

    async def open_it():
        opened.append(await open_database(tmp_path / "lama.sqlite3"))
        return opened[-1]

    yield open_it
    for db in opened:
        await db.close()  # a second close is harmless


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


async def test_the_writer_checkpoints_itself_only_as_a_backstop(open_store):
    db = await open_store()
    async with db.transaction() as tx:
        row = await tx.fetchone("PRAGMA wal_autocheckpoint")
    assert row[0] == BACKSTOP_PAGES > 1000


async def test_commits_past_a_thousand_pages_leave_the_wal_to_the_checkpoints(
    open_store, checkpoints_every
):
    checkpoints_every(3600)  # no round during the test
    db = await open_store()
    await write_pages(db, 2400, per_commit=20)
    # SQLite's own checkpoint (at 1,000 pages) would have restarted the WAL.
    assert wal_size(db) > 2000 * PAGE


async def test_a_round_copies_the_wal_into_the_database_file_while_the_store_is_idle(
    open_store, checkpoints_every
):
    checkpoints_every(0.01)
    db = await open_store()
    before = db.path.stat().st_size
    await write_pages(db, 300, per_commit=300)  # far below SQLite's own 1,000 pages
    await until(lambda: db.path.stat().st_size >= before + 300 * PAGE)


async def test_a_round_copies_nothing_twice(tmp_path, checkpoints_every):
    checkpoints_every(3600)
    db = await open_database(tmp_path / "lama.sqlite3")
    checkpoints = await WalCheckpoints.start(db.path, asyncio.Lock())
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


async def test_failing_rounds_are_logged_once_and_the_rounds_go_on(
    open_store, checkpoints_every, monkeypatch, caplog
):
    checkpoints_every(0.01)
    real_run_once = WalCheckpoints.run_once
    calls = []

    async def failing_thrice(self):
        calls.append(1)
        if len(calls) <= 3:
            raise sqlite3.OperationalError("disk I/O error")
        return await real_run_once(self)

    monkeypatch.setattr(WalCheckpoints, "run_once", failing_thrice)
    # INFO captured before the store opens: its rounds start while it migrates
    with caplog.at_level(logging.INFO, logger="store.wal_checkpoints"):
        await open_store()
        await until(lambda: len(calls) >= 5)
    failures = [r for r in caplog.records if "WAL checkpoint failed" in r.getMessage()]
    assert len(failures) == 1
    assert "WAL checkpoints work again" in caplog.text


async def test_under_steady_commits_the_wal_still_starts_over(
    open_store, checkpoints_every, monkeypatch
):
    """A commit lands while every round copies: SQLite starts the WAL over only once all of
    it is copied, so without the round's pass with the writer held it grew for good. The
    test drives the rounds itself (background rounds fall behind on a loaded machine)."""
    checkpoints_every(3600)
    monkeypatch.setattr("store.wal_checkpoints.RESTART_PAGES", 50)
    db = await open_store()
    async with db.transaction() as tx:
        await tx.execute("CREATE TABLE filler (blob BLOB)")
    commits = 0

    async def commit_steadily():
        nonlocal commits
        while True:
            await db.batch([Statement("INSERT INTO filler VALUES (randomblob(?))",
                                      (PAGE - 200,))])
            commits += 1

    committing = asyncio.create_task(commit_steadily())
    try:
        for _ in range(5):
            await until(lambda target=commits + 100: commits >= target)
            done = await db._checkpoints.run_round()
            assert done.copied_pages == done.wal_pages >= 50
            await until(lambda target=commits + 3: commits >= target)
            after = await db._checkpoints.run_once()
            assert after.wal_pages < done.wal_pages  # started over
    finally:
        committing.cancel()
        await asyncio.gather(committing, return_exceptions=True)


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


async def test_closing_the_store_closes_the_writer_even_when_closing_a_reader_fails(
    tmp_path, monkeypatch
):
    db = await open_database(tmp_path / "lama.sqlite3")
    failing = db._readers.connections[0]
    real_close = failing.close

    async def failing_close():
        await real_close()
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(failing, "close", failing_close)
    with pytest.raises(sqlite3.OperationalError):
        await db.close()
    # every thread ends: nothing keeps the process alive
    assert not any(conn._running for conn in (db._conn, *db._readers.connections))


class CountingLock(asyncio.Lock):
    """The store's writer lock, counting how often it is taken."""

    def __init__(self) -> None:
        super().__init__()
        self.taken = 0

    async def acquire(self) -> bool:
        self.taken += 1
        return await super().acquire()


async def test_an_idle_store_s_rounds_take_the_writer_no_more(
    tmp_path, checkpoints_every, monkeypatch
):
    """A WAL past RESTART_PAGES, all copied, nothing committed since: the next commit starts
    it over by itself, so a round has nothing to ask of the writer."""
    checkpoints_every(3600)
    monkeypatch.setattr("store.wal_checkpoints.RESTART_PAGES", 50)
    db = await open_database(tmp_path / "lama.sqlite3")
    writer = CountingLock()
    checkpoints = await WalCheckpoints.start(db.path, writer)
    try:
        await write_pages(db, 100, per_commit=50)
        await checkpoints.run_round()  # copies it all, with the writer held (past 50 pages)
        assert writer.taken == 1
        for _ in range(3):
            await checkpoints.run_round()
        assert writer.taken == 1
        await write_pages(db, 60, per_commit=60)  # committed since: the writer once more
        await checkpoints.run_round()
        assert writer.taken == 2
    finally:
        await checkpoints.close()
        await db.close()
