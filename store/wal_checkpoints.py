"""SQLite's WAL checkpoints, off the commits' path.

A commit appends to the -wal file; a checkpoint copies those pages back into the database
file and syncs it to disk. By default SQLite runs one inside whichever COMMIT grows the WAL
past 1,000 pages, so that commit, and every move waiting in its group commit
(store/batches.py), waited for the copy and the fsync: 10-65 ms on our machines, the tail
of a move's answer under load (issue 14, docs/performance.md).

So the writing connection never checkpoints (`PRAGMA wal_autocheckpoint = 0`), and a
connection of its own runs a PASSIVE checkpoint every `EVERY_S` seconds, in its own
thread. PASSIVE takes no lock that a writer or reader waits for: commits go on meanwhile,
and pages a reader's snapshot still needs are left for the next round. Once everything is
copied, the next commit starts the WAL from its beginning again, so it stays as small as
before. Closing the store stops the rounds; the last connection to close copies the rest
and removes the WAL.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

EVERY_S = 1.0


@dataclass(frozen=True)
class Checkpoint:
    """One round's answer from SQLite: `busy` (another checkpoint was running), the pages
    in the WAL, and how many of them are now in the database file."""

    busy: bool
    wal_pages: int
    copied_pages: int


class WalCheckpoints:
    """The rounds of checkpoints for one SQLite file. Build with `start`, end with `close`."""

    def __init__(self, conn: aiosqlite.Connection, every_s: float) -> None:
        """`every_s`: seconds between rounds (EVERY_S, read at `start`)."""
        self._conn = conn
        self._every_s = every_s
        self._task: asyncio.Task[None] | None = None
        self.rounds = 0  # finished rounds, failed or not

    @classmethod
    async def start(cls, path: Path) -> WalCheckpoints:
        conn = await aiosqlite.connect(path, isolation_level=None)
        checkpoints = cls(conn, EVERY_S)
        checkpoints._task = asyncio.create_task(checkpoints._rounds(), name="wal-checkpoints")
        return checkpoints

    async def run_once(self) -> Checkpoint:
        """Copy what the WAL holds into the database file, now."""
        async with self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
            row = await cursor.fetchone()
        assert row is not None  # the pragma always answers one row
        return Checkpoint(bool(row[0]), row[1], row[2])

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(self._every_s)
            try:
                done = await self.run_once()
            except Exception:  # a full disk, an I/O error: the commits report theirs
                log.exception("WAL checkpoint failed; trying again in %.0f s", self._every_s)
            else:
                if done.busy:
                    log.debug("WAL checkpoint found another one running")
            self.rounds += 1

    async def close(self) -> None:
        """Stop the rounds (a round in SQLite's thread finishes first) and the connection."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        await self._conn.close()
