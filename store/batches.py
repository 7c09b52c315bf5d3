"""SQLite's batches (`Database.batch`) committed together: one trip to the thread for all.

A move's commit is a few fixed statements (`Statement`), known before it starts. Running
them statement by statement costs a trip to aiosqlite's thread each, and every trip waits
for a turn of the event loop to hear back; under load that turn is where the time goes, and
the connection is held for all of it. So a batch goes to a queue, and one writer takes
everything queued, runs it in the thread as one transaction (each batch inside a SAVEPOINT
of its own, so one batch's refusal or error undoes only that batch) and commits once:
however many games move at once, their commits share one trip and one COMMIT.

A `Database.write(body)` joins the same queue: its whole body runs in the thread, in a
savepoint of its own (store/sqlite_transactions.py `run_body`). Each waiting batch or body is
a `Unit`; an error undoes only its own unit and is raised to its caller, unless SQLite undid
the whole transaction (a full disk): then every caller of the group hears it.

Reads are the same story on the read-only connections (store/sqlite_reads.py): a `read()`
costs a trip for BEGIN, each statement and COMMIT, so one-statement reads waiting together
go to a thread in one trip.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

from store.backend import Statement, Undone

Unit = Callable[[sqlite3.Connection], Any]  # one transaction's work, run in the thread
ItemT = TypeVar("ItemT")
ResultT = TypeVar("ResultT")


def run_units(conn: sqlite3.Connection, units: Sequence[Unit]) -> list[Any]:
    """In the connection's thread: BEGIN IMMEDIATE, every unit in its savepoint, COMMIT.
    Each unit's result, or its error (that unit undone). A failure of BEGIN or COMMIT, or one
    after which SQLite rolled back the whole transaction (a full disk, an I/O error), raises:
    nothing of the group is saved, and every unit's caller hears it."""
    conn.execute("BEGIN IMMEDIATE")
    outcomes: list[Any] = []
    try:
        for unit in units:
            conn.execute("SAVEPOINT unit")
            try:
                outcomes.append(unit(conn))
            except Exception as error:
                if not conn.in_transaction:  # SQLite undid all of it (disk full, I/O error)
                    raise
                outcomes.append(error)
                conn.execute("ROLLBACK TO unit")
            conn.execute("RELEASE unit")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def run_statements(statements: Sequence[Statement], conn: sqlite3.Connection) -> bool:
    """A batch as a unit: True, or Undone if a guard changed nothing."""
    for statement in statements:
        changed = conn.execute(statement.sql, statement.params).rowcount
        if statement.guard and changed < 1:
            raise Undone
    return True


class GroupCommit(Generic[ItemT, ResultT]):
    """The queue and its one worker. `run` executes a list of items (units) in
    the thread and returns each one's result or exception; it runs with `lock` held (the
    connection's), and takes the items waiting once it holds it."""

    def __init__(self, run: Callable[[list[ItemT]], Awaitable[Sequence[ResultT | Exception]]],
                 lock: asyncio.Lock, name: str = "store-writer"):
        self._run = run
        self._lock = lock
        self._name = name
        self._waiting: list[tuple[ItemT, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def submit(self, item: ItemT) -> ResultT:
        """Run the item with whatever else is waiting; its result, or its error raised. A
        caller cancelled before the trip that takes its item began: the item never runs;
        once that trip began, it runs (and a write commits) all the same."""
        future: asyncio.Future[ResultT] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write(), name=self._name)
        return await future

    async def drain(self) -> None:
        """Wait until everything submitted so far is committed (or has failed)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def _write(self) -> None:
        while self._waiting:
            async with self._lock:  # e.g. behind a transaction() block: more items join
                taken = [(item, f) for item, f in self._waiting if not f.cancelled()]
                self._waiting = []
                if taken:
                    await self._run_taken(taken)

    async def _run_taken(self, taken: list[tuple[ItemT, asyncio.Future[Any]]]) -> None:
        try:
            outcomes = await self._run([item for item, _ in taken])
        except Exception as error:
            outcomes = [error] * len(taken)
        except BaseException:  # the writer itself cancelled (shutdown): nobody hangs
            for _, future in taken + self._waiting:
                future.cancel()
            raise
        hand_over(taken, outcomes)


def hand_over(taken: Sequence[tuple[Any, asyncio.Future[Any]]], outcomes: Sequence[Any]) -> None:
    """Each waiter its own outcome of one trip: its result, or the exception its item raised
    (or the trip did); a waiter that gave up meanwhile is skipped."""
    for (_, future), outcome in zip(taken, outcomes, strict=True):
        if future.done():
            continue
        if isinstance(outcome, Exception):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
