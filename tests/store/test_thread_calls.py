"""A call into SQLite's thread (store/thread_calls.py): waited for blocked while it is quick,
awaited like any future once it is not. Each path is forced (a zero wait, a stand-in Event,
a thread that waits for the loop), never timed: `HANG` only guards against hanging."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import aiosqlite
import pytest

from store import thread_calls
from store.thread_calls import call_in_thread

HANG = 10.0


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
        return released.wait(HANG)

    call = asyncio.create_task(call_in_thread(conn, stalled, blocking_s=0.01))
    await asyncio.sleep(0)  # the call is queued, waited for in vain, then awaited
    released.set()  # by the event loop: it runs
    assert await call is True


async def test_a_cancelled_waiter_leaves_its_call_to_run(conn):
    released, finished = threading.Event(), threading.Event()

    def stalled():
        released.wait(HANG)
        finished.set()

    call = asyncio.create_task(call_in_thread(conn, stalled, blocking_s=0))
    await asyncio.sleep(0)  # it waits on its future now
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    released.set()
    assert await call_in_thread(conn, finished.is_set) is True  # queued after it: it ran


async def test_a_call_on_a_closed_connection_is_refused(conn):
    await conn.close()
    with pytest.raises(ValueError, match="Connection closed"):
        await call_in_thread(conn, lambda: None)


async def test_a_result_that_comes_after_its_waiter_was_cancelled_is_dropped_quietly(conn):
    reported = []
    asyncio.get_running_loop().set_exception_handler(lambda _, context: reported.append(context))
    released = threading.Event()
    call = asyncio.create_task(call_in_thread(conn, lambda: released.wait(HANG), blocking_s=0))
    await asyncio.sleep(0)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    released.set()
    await call_in_thread(conn, lambda: None)  # queued after it: its outcome was handed over
    await asyncio.sleep(0)  # the hand-over (call_soon_threadsafe) runs before this resumes
    assert reported == []


class _FinishedJustAsTheWaitGaveUp(threading.Event):
    """The race the guard is for: the thread finishes right after the loop's blocking wait
    gave up, before the loop made its future."""

    def wait(self, timeout=None):
        super().wait(HANG)
        return False


async def test_a_call_that_finishes_as_the_wait_gives_up_is_read_without_a_future(
        conn, monkeypatch):
    real_init = thread_calls._Call.__init__

    def init(self, function, loop):
        real_init(self, function, loop)
        self._finished = _FinishedJustAsTheWaitGaveUp()

    monkeypatch.setattr(thread_calls._Call, "__init__", init)
    assert await asyncio.wait_for(call_in_thread(conn, lambda: 42), HANG) == 42


async def test_an_error_after_the_wait_gave_up_is_raised_to_the_awaiter(conn):
    released = threading.Event()

    def refuse_later():
        released.wait(HANG)
        raise LookupError("no such row")

    call = asyncio.create_task(call_in_thread(conn, refuse_later, blocking_s=0))
    await asyncio.sleep(0)
    released.set()
    with pytest.raises(LookupError, match="no such row"):
        await asyncio.wait_for(call, HANG)


class _Abort(BaseException):
    """Not an Exception (as KeyboardInterrupt, SystemExit): safe to raise inside pytest."""


@pytest.mark.parametrize("blocking_s", [5.0, 0.0], ids=["read blocked", "awaited"])
async def test_a_base_exception_in_the_thread_reaches_the_caller_and_the_thread_lives_on(
        conn, blocking_s):
    def abort():
        raise _Abort

    with pytest.raises(_Abort):
        await asyncio.wait_for(call_in_thread(conn, abort, blocking_s=blocking_s), HANG)
    assert await call_in_thread(conn, lambda: "still serving") == "still serving"


async def outlast_the_wait(conn) -> None:
    """A call the loop gives up waiting for blocked (the thread waits for the loop)."""
    released = threading.Event()
    call = asyncio.create_task(call_in_thread(conn, lambda: released.wait(HANG), 0.001))
    await asyncio.sleep(0)
    released.set()
    await call


async def test_after_a_call_outlasts_the_wait_the_connections_calls_are_only_awaited(
        conn, monkeypatch):
    """A stalled disk or a busy pure-Python thread costs the loop one blocking wait, not one
    per statement."""
    monkeypatch.setattr(thread_calls, "HOLD_OFF_S", 3600.0)
    await outlast_the_wait(conn)
    others_ran = []
    asyncio.get_running_loop().call_soon(others_ran.append, True)
    await call_in_thread(conn, lambda: None, blocking_s=5.0)
    assert others_ran == [True]


async def test_once_the_hold_off_is_over_quick_calls_are_read_blocked_again(conn, monkeypatch):
    monkeypatch.setattr(thread_calls, "HOLD_OFF_S", 0.0)
    await outlast_the_wait(conn)
    others_ran = []
    asyncio.get_running_loop().call_soon(others_ran.append, True)
    await call_in_thread(conn, lambda: None, blocking_s=5.0)
    assert others_ran == []


async def test_a_call_queued_while_the_connection_closes_still_answers(conn):
    closing = asyncio.create_task(conn.close())
    await asyncio.sleep(0)  # close() queued the sqlite3 close; its stop comes after
    assert await asyncio.wait_for(call_in_thread(conn, lambda: "ran", blocking_s=0), HANG) == "ran"
    await closing


async def test_a_call_queued_while_the_connection_closes_hears_the_closed_database(conn):
    raw = conn._conn
    closing = asyncio.create_task(conn.close())
    await asyncio.sleep(0)
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        await asyncio.wait_for(call_in_thread(conn, lambda: raw.execute("SELECT 1")), HANG)
    await closing
