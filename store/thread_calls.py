"""A call into a connection's SQLite thread that the event loop first waits for blocked.

Why (issue 14, the moves' p99): a group commit handed to aiosqlite's thread the usual way
ran in a GIL convoy. Each of its statements lets go of the GIL inside SQLite and must win it
back from the event loop's thread, which, busy, hands it over only once per switch
interval; a commit of 0.3 ms of work took 5-40 ms, and every move waiting for it with it.
With the loop's thread blocked on an Event instead (the GIL let go), the SQLite thread runs
the statements back to back and the loop carries on with the result in the same step.

The blocking wait is bounded: past `BLOCKING_WAIT_S` (a stalled disk, another process's
lock, a slow query, or a pure-Python thread such as a hard AI's rollouts holding the GIL)
the loop stops waiting and hears the result as any awaited future. Such a call cost the
loop its `BLOCKING_WAIT_S`, so for `HOLD_OFF_S` after it the connection's calls are only
awaited: a stall or a busy thread costs the loop one short pause now and then, not one per
statement. A `transaction()` block's quick statements run without a turn of the loop between
them, as if the loop ran them itself: a block is a few statements, never a long loop of them.
A `read()` block on a read connection waits not at all (`SqliteTransaction.reads_only`): its
thread runs below the loop, and it is seldom on a move's path (boards, statistics, a lobby's
look-ups, a game loaded again).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Generic, TypeVar
from weakref import WeakKeyDictionary

import aiosqlite

T = TypeVar("T")
BLOCKING_WAIT_S = 0.002  # a group commit's own work takes 0.1-1 ms
HOLD_OFF_S = 0.1

# per connection: until when (the loop's clock) its calls are awaited without blocking
_held_off: WeakKeyDictionary[aiosqlite.Connection, float] = WeakKeyDictionary()


async def call_in_thread(conn: aiosqlite.Connection, function: Callable[[], T],
                         blocking_s: float = BLOCKING_WAIT_S) -> T:
    """`function()` in the connection's thread (after whatever is queued there), waited for
    blocked up to `blocking_s` (0: not at all), then awaited."""
    if not conn._running or conn._connection is None:  # what aiosqlite's _execute checks
        raise ValueError("Connection closed")
    loop = asyncio.get_running_loop()
    if loop.time() < _held_off.get(conn, 0.0):
        blocking_s = 0.0
    call = _Call(function, loop)
    _enqueue(conn, call)
    if not call.finished_within(blocking_s):
        if blocking_s:
            _held_off[conn] = loop.time() + HOLD_OFF_S
        await call.finished()
    return call.outcome()


def _enqueue(conn: aiosqlite.Connection, call: Callable[[], None]) -> None:
    """One trip to the connection's thread. aiosqlite has no public "run this there": its
    queue is that (aiosqlite pinned); with no future, the call reports its own outcome."""
    conn._tx.put_nowait((None, call))


class _Call(Generic[T]):
    """One function run in the thread, its outcome handed to the loop's thread either way:
    read at once by a loop that waited blocked, or announced on a future once it stopped."""

    def __init__(self, function: Callable[[], T], loop: asyncio.AbstractEventLoop) -> None:
        self._function = function
        self._loop = loop
        self._finished = threading.Event()
        # Under it, either the thread sees the loop's future (and wakes it), or the loop
        # sees the call finished (and makes no future): never neither, never both.
        self._guard = threading.Lock()
        self._future: asyncio.Future[None] | None = None  # made once the loop stops blocking
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
            self._loop.call_soon_threadsafe(self._wake, future)

    def finished_within(self, seconds: float) -> bool:
        """The loop's thread blocked (the GIL let go) until the call finished, or `seconds`."""
        return self._finished.wait(seconds)

    async def finished(self) -> None:
        """Awaited, once blocking gave up. Cancelling it leaves the call running, as
        aiosqlite's own calls do."""
        with self._guard:
            if not self._finished.is_set():
                self._future = self._loop.create_future()
        if self._future is not None:
            await self._future

    def outcome(self) -> T:
        """The function's result, or its error raised; once finished."""
        if self._error is not None:
            raise self._error
        return self._result  # type: ignore[return-value]

    def _wake(self, future: asyncio.Future[None]) -> None:
        if not future.done():  # else its waiter was cancelled: nobody wants the outcome
            future.set_result(None)
