"""A call into a connection's SQLite thread that the event loop first waits for blocked.

Why (issue 14, the moves' p99): a group commit handed to aiosqlite's thread the usual way
ran in a GIL convoy. Each of its statements lets go of the GIL inside SQLite and must win it
back from the event loop's thread, which, busy, hands it over only once per switch
interval; a commit of 0.3 ms of work took 5-40 ms, and every move waiting for it with it.
With the loop's thread blocked on an Event instead (the GIL let go), the SQLite thread runs
the statements back to back and the loop carries on with the result at once: it loses the
commit's own time, no more.

The blocking wait is bounded: past `BLOCKING_WAIT_S` (a stalled disk, another process's
lock, a large group) the loop stops waiting and hears the result as any awaited future, so a
stall costs the other interactions one short pause, not an answer.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

import aiosqlite

T = TypeVar("T")
BLOCKING_WAIT_S = 0.002  # a group commit's own work takes 0.1-1 ms


async def call_in_thread(conn: aiosqlite.Connection, function: Callable[[], T],
                         blocking_s: float = BLOCKING_WAIT_S) -> T:
    """`function()` in the connection's thread (after whatever is queued there), waited for
    blocked up to `blocking_s`, then awaited."""
    if not conn._running or conn._connection is None:  # what aiosqlite's _execute checks
        raise ValueError("Connection closed")
    call = _Call(function, asyncio.get_running_loop())
    _enqueue(conn, call)
    return await call.outcome(blocking_s)


def _enqueue(conn: aiosqlite.Connection, call: Callable[[], None]) -> None:
    """One trip to the connection's thread. aiosqlite has no public "run this there": its
    queue is that (aiosqlite pinned); with no future, the call reports its own outcome."""
    conn._tx.put_nowait((None, call))


class _Call(Generic[T]):
    """One function run in the thread, its outcome handed to the loop's thread either way:
    read directly by a blocked waiter, or set on a future once the waiter stopped blocking."""

    def __init__(self, function: Callable[[], T], loop: asyncio.AbstractEventLoop) -> None:
        self._function = function
        self._loop = loop
        self._finished = threading.Event()
        self._guard = threading.Lock()  # "finished" against "a future is waiting"
        self._future: asyncio.Future[None] | None = None  # set once it is finished
        self._result: T | None = None
        self._error: BaseException | None = None

    def __call__(self) -> None:
        """In the connection's thread."""
        try:
            self._result = self._function()
        except BaseException as error:  # handed to the waiter, as aiosqlite does
            self._error = error
        with self._guard:
            self._finished.set()
            future = self._future
        if future is not None:
            self._loop.call_soon_threadsafe(self._settle, future)

    async def outcome(self, blocking_s: float) -> T:
        if not self._finished.wait(blocking_s):
            with self._guard:
                if not self._finished.is_set():
                    self._future = self._loop.create_future()
            if self._future is not None:
                await self._future  # cancelling it leaves the call running, as aiosqlite's
        return self._unwrapped()

    def _settle(self, future: asyncio.Future[None]) -> None:
        if not future.done():  # else the waiter was cancelled
            future.set_result(None)

    def _unwrapped(self) -> T:
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]
