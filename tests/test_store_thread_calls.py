"""A call into SQLite's thread (store/thread_calls.py): waited for blocked while it is quick,
awaited like any future once it is not."""

from __future__ import annotations

import asyncio
import threading

import aiosqlite
import pytest

from store.thread_calls import call_in_thread


@pytest.fixture
async def conn(tmp_path):
    connection = await aiosqlite.connect(tmp_path / "calls.sqlite3")
    yield connection
    await connection.close()


async def test_a_call_returns_what_its_function_returned(conn):
    assert await call_in_thread(conn, lambda: 42) == 42


async def test_a_call_raises_what_its_function_raised(conn):
    def refuse():
        raise LookupError("no such row")

    with pytest.raises(LookupError, match="no such row"):
        await call_in_thread(conn, refuse)


async def test_a_call_runs_in_the_connections_thread(conn):
    assert await call_in_thread(conn, threading.get_ident) == conn._thread.ident


async def test_a_quick_call_is_read_without_a_turn_of_the_event_loop(conn):
    """The point of the blocking wait: no other task runs (and holds the GIL) meanwhile."""
    others_ran = []
    asyncio.get_running_loop().call_soon(others_ran.append, True)
    await call_in_thread(conn, lambda: None, blocking_s=5.0)
    assert others_ran == []


async def test_a_call_that_outlasts_the_wait_lets_the_event_loop_run(conn):
    released = threading.Event()

    def stalled():  # a disk or another process's lock that only the loop can end
        return released.wait(timeout=10)

    call = asyncio.create_task(call_in_thread(conn, stalled, blocking_s=0.01))
    await asyncio.sleep(0)  # the call is queued, waited for in vain, then awaited
    released.set()  # by the event loop: it runs
    assert await call is True


async def test_a_cancelled_waiter_leaves_its_call_to_run(conn):
    released, finished = threading.Event(), threading.Event()

    def stalled():
        released.wait(timeout=10)
        finished.set()

    call = asyncio.create_task(call_in_thread(conn, stalled, blocking_s=0.01))
    await asyncio.sleep(0.05)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    released.set()
    assert await call_in_thread(conn, finished.is_set) is True  # queued after it: it ran


async def test_a_call_on_a_closed_connection_is_refused(conn):
    await conn.close()
    with pytest.raises(ValueError, match="Connection closed"):
        await call_in_thread(conn, lambda: None)
