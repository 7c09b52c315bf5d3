"""Another program holding SQLite's write lock, as a backup or a maintenance script would."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path


@contextlib.asynccontextmanager
async def write_lock_held(path: Path, seconds: float | None, begin: str = "BEGIN IMMEDIATE"
                          ) -> AsyncIterator[asyncio.Event]:
    """A second, real sqlite3 connection on the same file holds the write lock for `seconds`
    (measured from entering the block; None: until the block ends, however long what it
    does takes on a busy machine); yields an event set once it let go."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute(begin)
    released = asyncio.Event()

    def release() -> None:
        other.execute("ROLLBACK")
        other.close()
        released.set()

    loop = asyncio.get_running_loop()
    handle = None if seconds is None else loop.call_later(seconds, release)
    try:
        yield released
        if handle is not None:
            await released.wait()
    finally:
        if not released.is_set():
            if handle is not None:
                handle.cancel()
            release()
