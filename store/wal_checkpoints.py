"""SQLite's WAL checkpoints, off the commits' path.

A commit appends to the -wal file; a checkpoint copies those pages back into the database
file and syncs it to disk. By default SQLite runs one inside whichever COMMIT grows the WAL
past 1,000 pages, so that commit, and every move waiting in its group commit
(store/batches.py), waited for the copy and the fsync: 10-65 ms on our machines, the tail
of a move's answer under load (issue 14, docs/performance.md).

So a connection of its own runs a PASSIVE checkpoint every `EVERY_S` seconds, in its own
thread. PASSIVE takes no lock that a writer or reader waits for: commits go on meanwhile.
But a commit starts the WAL from its beginning again only if all of it was copied before
the commit began, and under load the next commit has always begun: the WAL would grow for
as long as the load lasts. So when a round finds `RESTART_PAGES` or more in the WAL, it
copies again with the store's writer held: a few pages (what came in meanwhile), after
which the next commit starts the WAL over.

The writer keeps SQLite's own checkpoint as a backstop, at `BACKSTOP_PAGES` instead of
1,000, for when the rounds cannot run (an event loop blocked for long); and
`journal_size_limit` shrinks the file after a spike. Closing the store stops the rounds; the
last connection to close copies the rest and removes the WAL.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import aiosqlite

from store.thread_calls import call_in_thread

log = logging.getLogger(__name__)

EVERY_S = 1.0
RESTART_PAGES = 1_000
BACKSTOP_PAGES = 10_000
SIZE_LIMIT_BYTES = 16 * 1024 * 1024  # what a restarted WAL file is cut back to


@dataclass(frozen=True)
class Checkpoint:
    """One pass's answer from SQLite: `busy` (another checkpoint was running), the pages
    in the WAL, and how many of them are now in the database file."""

    busy: bool
    wal_pages: int
    copied_pages: int


class WalCheckpoints:
    """The rounds of checkpoints for one SQLite file. Build with `start`, end with `close`."""

    def __init__(self, conn: aiosqlite.Connection, writer: asyncio.Lock, every_s: float) -> None:
        """`writer`: the store's lock around every commit; `every_s`: seconds between rounds
        (EVERY_S, read at `start`)."""
        self._conn = conn
        self._writer = writer
        self._every_s = every_s
        self._task: asyncio.Task[None] | None = None
        self._failing = False
        self._last: Checkpoint | None = None  # the last round's answer

    @classmethod
    async def start(cls, path: Path, writer: asyncio.Lock) -> WalCheckpoints:
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute("PRAGMA busy_timeout = 5000")  # its first schema read
        except BaseException:
            await conn.close()
            raise
        checkpoints = cls(conn, writer, EVERY_S)
        checkpoints._task = asyncio.create_task(checkpoints._rounds(), name="wal-checkpoints")
        return checkpoints

    async def run_once(self) -> Checkpoint:
        """One PASSIVE pass: copy what the WAL holds into the database file, now. One trip to
        the thread (a cursor would cost three, each waiting for a turn of the event loop,
        the store's writer held for the second pass), only awaited: it syncs to disk."""
        return await call_in_thread(self._conn, partial(_passive_pass, self._conn._conn),
                                    blocking_s=0)

    async def run_round(self) -> Checkpoint:
        """A pass; and if the WAL has grown large (commits kept it from starting over), a
        second one with the writer held, so that the next commit starts it over. Not when
        nothing was committed since the last round: all of it is copied, and the next commit
        starts it over by itself (an idle bot takes the writer no more)."""
        done = await self.run_once()
        idle = done == self._last and done.copied_pages == done.wal_pages
        if done.wal_pages >= RESTART_PAGES and not idle:
            async with self._writer:
                done = await self.run_once()
        self._last = done
        return done

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(self._every_s)
            try:
                await self.run_round()
            except Exception:  # a full disk, an I/O error: the commits report theirs
                if not self._failing:
                    log.exception("WAL checkpoint failed; trying again every %.0f s",
                                  self._every_s)
                self._failing = True
            else:
                if self._failing:
                    log.info("WAL checkpoints work again")
                self._failing = False

    async def close(self) -> None:
        """Stop the rounds (a pass in SQLite's thread finishes first) and the connection."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        await self._conn.close()


def _passive_pass(conn: sqlite3.Connection) -> Checkpoint:
    """In the checkpoint connection's thread."""
    row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return Checkpoint(bool(row[0]), row[1], row[2])  # the pragma always answers one row
