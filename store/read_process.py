"""The web site's pages read anew, read in processes of their own (store/read_worker.py).

Why (issue 33): at 100,000 games a crowd of players' pages keeps a reader busy all the
time. A read thread in the bot's process, however low its priority, shares the process's
interpreter lock: it takes the lock for every row it hands over, and pre-empted while it holds
it, the event loop stands still until its next slice (with other programs on every core, a
move waited 360 ms for a thread of the lowest priority). A reader process of the lowest
priority has a lock of its own: it runs only on a core nobody else wants, gives it up at once
when a move's commit wants it, and never holds up the loop. The loop only writes a request to
its pipe and hears the answer, as it would hear a socket.

- `ReaderProcess`: one child process and its pipes; requests answered in order, each caller
  hearing its own (a caller that gave up: its answer is dropped). Started at its first read;
  one that ended (killed, crashed, or an answer it could not have written) fails the reads
  in flight and is started anew at the next; a read that had seen nothing yet (one
  statement, a snapshot's first) is read once more in the new one.
- `ProcessReaders`: a few of them, each held by one read at a time, and back with the
  others only once every answer asked of it came (a read given up still runs there):
  `transaction()` (a snapshot: BEGIN DEFERRED with its first statement, ended when the
  block ends; its later statements only from the process that read its first) and
  `fetchall()` (one statement, no BEGIN).
- What crosses the pipe, parameters, rows and errors: store/read_rows.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import sqlite3
import sys
from collections import deque
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from store import read_worker
from store.backend import Dialect, Params, Row, Transaction
from store.read_rows import error_of, plain, rows_of

log = logging.getLogger(__name__)
CLOSE_WAIT_S = 5.0  # for a reader process to end once told to, before it is killed
READ_ONLY = "attempt to write a readonly database"  # SQLite's own words


class ReaderGone(sqlite3.OperationalError):
    """The reader process ended (killed, crashed) before it answered, or before a read()
    block's later statement (its snapshot ended with it)."""


class ReaderProcess:
    """One reader process of the file at `uri`."""

    def __init__(self, uri: str) -> None:
        self._uri = uri
        self._process: asyncio.subprocess.Process | None = None
        self._asked: deque[asyncio.Future[Any]] = deque()
        self._settled = asyncio.Event()  # no answer is on its way
        self._settled.set()
        self._hearing: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()
        self.generation = 0  # how many processes were started

    @property
    def pid(self) -> int | None:
        """The running process's id, None before its first read and after it ended."""
        if self._hearing is None or self._process is None:
            return None
        return self._process.pid

    @property
    def settled(self) -> bool:
        """Whether every answer asked for has come (or the process ended)."""
        return self._settled.is_set()

    async def ask(self, request: tuple[Any, ...], *, generation: int | None = None) -> Any:
        """The answer to one request; its read's error raised as the store's own read
        connection raises it. `generation`: only from the process that answered that one (a
        snapshot's later statements: another process would read another snapshot)."""
        if generation is not None and (self.pid is None or generation != self.generation):
            raise ReaderGone("the site's reader process ended during this read")
        await self._started()
        ok, columns, found = await self.send(request)
        if not ok:
            raise error_of(columns, found)
        return found if columns is None else rows_of(columns, found)

    async def ask_again_if_gone(self, request: tuple[Any, ...]) -> Any:
        """The answer to a read that has seen nothing yet (one statement, or a snapshot's
        first): if the process ended before it answered (killed, crashed), asked once more
        of a new one, as its page would be asked again. Gone twice: `ReaderGone`."""
        try:
            return await self.ask(request)
        except ReaderGone:
            log.warning("the site's reader process ended before it answered: read again")
            return await self.ask(request)

    def send(self, request: tuple[Any, ...]) -> asyncio.Future[Any]:
        """Write one request; its answer's future (nobody need wait for it: one whose
        process ended is heard all the same)."""
        assert self._process is not None and self._process.stdin is not None
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_heard)
        body = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        self._process.stdin.write(read_worker.LENGTH.pack(len(body)) + body)
        self._asked.append(future)
        self._settled.clear()
        return future

    async def settle(self) -> None:
        """Wait until every answer asked for has come (or the process ended)."""
        await self._settled.wait()

    async def _started(self) -> None:
        if self._hearing is not None:
            return
        async with self._starting:
            if self._hearing is None:
                self._process = await asyncio.create_subprocess_exec(
                    sys.executable, "-I", read_worker.__file__, self._uri,
                    stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
                self.generation += 1
                self._hearing = asyncio.create_task(self._hear(self._process),
                                                    name="store-reader-process")

    async def _hear(self, process: asyncio.subprocess.Process) -> None:
        """Each answer to the request it answers, in order, until the process ends."""
        assert process.stdout is not None
        size = read_worker.LENGTH.size
        try:
            while True:
                header = await process.stdout.readexactly(size)
                body = await process.stdout.readexactly(read_worker.LENGTH.unpack(header)[0])
                answer = pickle.loads(body)
                future = self._asked.popleft()  # an answer asked for by nobody: IndexError
                if not future.done():  # else its reader gave up: the answer is dropped
                    future.set_result(answer)
                if not self._asked:
                    self._settled.set()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        except Exception:  # an answer it could not have written: end it, start another
            log.exception("the site's reader process %s answered amiss: ended", process.pid)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        finally:
            self._gone(process)

    def _gone(self, process: asyncio.subprocess.Process) -> None:
        """The process ended: the reads in flight hear it, the next read starts another."""
        self._hearing = None
        asked, self._asked = self._asked, deque()
        for future in asked:
            if not future.done():
                future.set_exception(ReaderGone("the site's reader process ended"))
        self._settled.set()
        if process.returncode is None and process.stdin is not None:
            process.stdin.close()

    async def close(self) -> None:
        """Tell the process to end (its stdin closed), and wait for it; killed if it lingers."""
        process, hearing = self._process, self._hearing
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), CLOSE_WAIT_S)
        except TimeoutError:
            log.warning("the site's reader process %s did not end: killed", process.pid)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        if hearing is not None:
            await hearing


def _heard(future: asyncio.Future[Any]) -> None:
    """An answer nobody waits for (a block's end, a read given up) that failed is not an
    "exception never retrieved"."""
    if not future.cancelled():
        future.exception()


class ProcessTransaction(Transaction):
    """A `read()` block's statements, in one reader process, in one snapshot."""

    dialect = Dialect.SQLITE
    _conn: ReaderProcess

    _generation: int | None = None  # the process that read its snapshot's first statement

    async def _read(self, op: str, sql: str, params: Params) -> Any:
        self._check()
        request = (op, True, sql, plain(params))
        if self._generation is None:  # its first statement: nothing seen yet
            found = await self._conn.ask_again_if_gone(request)
        else:
            found = await self._conn.ask(request, generation=self._generation)
        self._generation = self._conn.generation
        return found

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        rows: list[Row] = await self._read("all", sql, params)
        return rows

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        row: Row | None = await self._read("one", sql, params)
        return row

    async def execute(self, sql: str, params: Params = ()) -> int:
        count: int = await self._read("run", sql, params)
        return count

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        raise sqlite3.OperationalError(READ_ONLY)

    async def insert(self, sql: str, params: Params = ()) -> int:
        raise sqlite3.OperationalError(READ_ONLY)

    async def execute_script(self, sql: str) -> None:
        raise sqlite3.OperationalError(READ_ONLY)

    async def write_schema_version(self, version: int) -> None:
        raise sqlite3.OperationalError(READ_ONLY)

    async def read_schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def lock(self, name: str, key: int) -> None:
        self._check()

    async def explain(self, sql: str, params: Params = (), *, as_if_large: bool = False
                      ) -> list[str]:
        return [row["detail"] for row in await self.fetchall(f"EXPLAIN QUERY PLAN {sql}", params)]


class ProcessReaders:
    """`count` reader processes of the file at `path`, each started at its first read."""

    def __init__(self, path: Path, count: int) -> None:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        self.processes = tuple(ReaderProcess(uri) for _ in range(count))
        self._idle: asyncio.Queue[ReaderProcess] = asyncio.Queue()
        for process in self.processes:
            self._idle.put_nowait(process)
        self._holders: set[asyncio.Task[Any] | None] = set()
        self._returning: set[asyncio.Task[None]] = set()
        self._closed = False

    @asynccontextmanager
    async def _held(self) -> AsyncIterator[ReaderProcess]:
        task = asyncio.current_task()
        if task in self._holders:  # with one process, it would wait for itself forever
            raise RuntimeError("a store read inside a background read() block: "
                               "read through its Transaction instead")
        process = await self._idle.get()
        self._holders.add(task)
        try:
            if self._closed:  # as a closed sqlite3 connection says it
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            yield process
        finally:
            self._holders.discard(task)
            self._give_back(process)

    def _give_back(self, process: ReaderProcess) -> None:
        """Idle again once every answer asked of it has come: a read given up (its page's
        deadline) still runs there, and the next read would wait behind it in its pipe, out
        of sight of the site's line of turns."""
        if process.settled:
            self._idle.put_nowait(process)
            return
        returning = asyncio.create_task(self._back_when_settled(process))
        self._returning.add(returning)
        returning.add_done_callback(self._returning.discard)

    async def _back_when_settled(self, process: ReaderProcess) -> None:
        try:
            await process.settle()
        finally:
            self._idle.put_nowait(process)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """A snapshot on the first idle process, held for the block."""
        async with self._held() as process:
            tx = ProcessTransaction(process)
            try:
                yield tx
            finally:
                tx._close()
                if process.pid is not None:  # ended before the next read, in order
                    process.send(("end",))

    async def fetchall(self, sql: str, params: Params) -> list[Row]:
        """One statement's rows, outside any transaction, on the first idle process."""
        async with self._held() as process:
            rows: list[Row] = await process.ask_again_if_gone(("all", False, sql,
                                                               plain(params)))
            return rows

    async def close(self) -> None:
        """End every process once its reads are done, or after `CLOSE_WAIT_S` (a read given
        up may still run in a process nobody else wants to run); later reads are refused."""
        self._closed = True
        taken: list[ReaderProcess] = []
        try:
            async with asyncio.timeout(CLOSE_WAIT_S):
                while len(taken) < len(self.processes):
                    taken.append(await self._idle.get())
        except TimeoutError:
            log.warning("the site's reader processes closed with %d reads in them",
                        len(self.processes) - len(taken))
        finally:
            for process in taken:
                self._idle.put_nowait(process)
        failure: BaseException | None = None
        for process in self.processes:
            try:
                await process.close()
            except BaseException as error:  # the others are ended all the same
                failure = failure or error
        if failure is not None:
            raise failure
