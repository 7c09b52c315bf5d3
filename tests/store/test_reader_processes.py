"""The site's reader processes (store/read_process.py, store/read_worker.py): they read as the
store's own read connections do, run only on a core nobody else wants, and never leave a
read hanging or a process behind."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sqlite3
import sys
import textwrap
from contextlib import asynccontextmanager
from enum import StrEnum

import pytest

from store import open_database, read_process
from store.backend import Statement
from store.background import background_reads
from store.read_process import ProcessReaders, ReaderGone

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux signals")
HANG_S = 10.0


@pytest.fixture
async def db(tmp_path):
    database = await open_database(tmp_path / "lama.sqlite3")
    await database.batch([Statement("INSERT INTO meta (key, value) VALUES ('colour', 'blue')")])
    yield database
    await database.close()


@pytest.fixture
async def one_reader(db):
    """One reader process of the database's file, apart from the database's own."""
    readers = ProcessReaders(db.path, 1)
    yield readers
    await readers.close()


def colour_is(value: str) -> Statement:
    return Statement("UPDATE meta SET value = ? WHERE key = 'colour'", (value,))


async def colour(tx) -> str:
    row = await tx.fetchone("SELECT value FROM meta WHERE key = 'colour'")
    return row["value"]


@asynccontextmanager
async def stopped(pid: int):
    """The process stopped (as if no core were free for it) until the block ends."""
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


async def started_pid(readers: ProcessReaders) -> int:
    await readers.fetchall("SELECT 1", ())
    pid = readers.processes[0].pid
    assert pid is not None
    return pid


async def test_no_reader_process_starts_before_the_first_background_read(db):
    assert [process.pid for process in db._background.processes] == [None] * len(
        db._background.processes)
    await db.fetchall("SELECT 1")  # a foreground read
    assert db._background.processes[0].pid is None


async def test_a_reader_process_runs_only_on_a_core_nobody_else_wants(one_reader):
    pid = await started_pid(one_reader)
    assert pid != os.getpid()
    assert os.sched_getscheduler(pid) == os.SCHED_IDLE or os.getpriority(
        os.PRIO_PROCESS, pid) == 19  # where SCHED_IDLE is refused


async def test_its_rows_read_as_the_stores_own_rows(db):
    sql = "SELECT key, value, 7 AS seven, NULL AS missing, x'00ff' AS bytes FROM meta " \
          "WHERE key = 'colour'"
    here = (await db.fetchall(sql))[0]
    with background_reads():
        there = (await db.fetchall(sql))[0]
    assert there["value"] == here["value"] and there[1] == here[1]
    assert list(there.keys()) == list(here.keys())
    assert tuple(there) == tuple(here) and dict(there) == dict(here)
    assert there["bytes"] == b"\x00\xff" and there["missing"] is None


async def test_its_rows_take_names_as_sqlite_rows_do(db):
    """Repeated names, any case, a name it does not have: as sqlite3.Row."""
    sql = "SELECT 1 AS a, 2 AS a, 3 AS Mixed"
    here = (await db.fetchall(sql))[0]
    with background_reads():
        there, again = await db.fetchall(sql), await db.fetchall(sql)
    assert list(there[0].keys()) == list(here.keys()) == ["a", "a", "Mixed"]
    assert (there[0]["a"], there[0]["mixed"]) == (here["a"], here["mixed"]) == (1, 3)
    with pytest.raises(IndexError):
        here["nope"]
    with pytest.raises(IndexError):
        there[0]["nope"]
    assert there == again and hash(there[0]) == hash(again[0]) and "Mixed" in repr(there[0])


async def test_a_read_block_sees_one_snapshot_and_the_next_sees_the_last_commit(db):
    with background_reads():
        async with db.read() as tx:
            before = await colour(tx)
            await db.batch([colour_is("green")])
            still = await colour(tx)
        async with db.read() as tx:
            after = await colour(tx)
        one_statement = await db.fetchall("SELECT value FROM meta WHERE key = 'colour'")
    assert (before, still, after, one_statement[0]["value"]) == ("blue", "blue", "green", "green")


async def test_fetchone_finds_nothing_as_none(db):
    with background_reads():
        async with db.read() as tx:
            assert await tx.fetchone("SELECT value FROM meta WHERE key = 'nope'") is None


@pytest.mark.parametrize(("sql", "params", "error"), [
    ("SELEC 1", (), sqlite3.OperationalError),
    ("SELECT ?", (1, 2), sqlite3.ProgrammingError),
    ("SELECT * FROM no_such_table", (), sqlite3.OperationalError),
])
async def test_sqlites_errors_come_back_as_sqlites_own(db, sql, params, error):
    with background_reads():
        with pytest.raises(error):
            await db.fetchall(sql, params)
        async with db.read() as tx:
            with pytest.raises(error):
                await tx.fetchall(sql, params)
            assert await colour(tx) == "blue"  # the reader reads on after it


async def test_a_write_there_is_refused_as_on_any_read_only_connection(db):
    with background_reads():
        async with db.read() as tx:
            with pytest.raises(sqlite3.OperationalError, match="readonly"):
                await tx.execute("DELETE FROM meta")
            with pytest.raises(sqlite3.OperationalError, match="readonly"):
                await tx.insert("INSERT INTO meta (key, value) VALUES ('a', 'b')")
    assert await colour(db) == "blue"


async def test_a_read_block_is_refused_after_it_ended(db):
    with background_reads():
        async with db.read() as tx:
            pass
        with pytest.raises(RuntimeError):
            await tx.fetchall("SELECT 1")


async def given_up(readers: ProcessReaders) -> asyncio.Task:
    """A read sent to a stopped reader, then given up."""
    reading = asyncio.create_task(readers.fetchall("SELECT 'given up' AS said", ()))
    await asyncio.sleep(0.05)
    reading.cancel()
    return reading


async def test_a_read_given_up_leaves_the_next_read_its_own_answer(one_reader):
    pid = await started_pid(one_reader)
    async with stopped(pid):
        gone = await given_up(one_reader)
        next_read = asyncio.create_task(one_reader.fetchall("SELECT 'next' AS said", ()))
    async with asyncio.timeout(HANG_S):
        assert (await next_read)[0]["said"] == "next"
    assert gone.cancelled()


async def test_a_block_given_up_leaves_no_snapshot_behind(db, one_reader):
    snapshot_taken = asyncio.Event()

    async def read_slowly() -> None:
        async with one_reader.transaction() as tx:
            await colour(tx)
            snapshot_taken.set()
            await asyncio.sleep(HANG_S)

    reading = asyncio.create_task(read_slowly())
    async with asyncio.timeout(HANG_S):
        await snapshot_taken.wait()
    reading.cancel()
    await db.batch([colour_is("green")])
    async with asyncio.timeout(HANG_S), one_reader.transaction() as tx:
        assert await colour(tx) == "green"


async def test_a_read_whose_reader_was_killed_is_read_again_in_another(one_reader):
    pid = await started_pid(one_reader)
    async with stopped(pid):
        reading = asyncio.create_task(one_reader.fetchall("SELECT 'read' AS said", ()))
        await asyncio.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
    async with asyncio.timeout(HANG_S):
        assert (await reading)[0]["said"] == "read"
    assert one_reader.processes[0].pid not in (None, pid)


async def test_a_snapshot_whose_reader_was_killed_before_its_first_answer_is_read_anew(db):
    with background_reads():
        await db.fetchall("SELECT 1")
        pid = db._background.processes[0].pid

        async def first_statement() -> str:
            async with db.read() as tx:
                return await colour(tx)

        async with stopped(pid):
            reading = asyncio.create_task(first_statement())
            await asyncio.sleep(0.05)
            os.kill(pid, signal.SIGKILL)
        async with asyncio.timeout(HANG_S):
            assert await reading == "blue"


async def test_closing_the_database_ends_its_reader_processes(db):
    with background_reads():
        await db.fetchall("SELECT 1")
    pid = db._background.processes[0].pid
    assert pid is not None
    await db.close()
    with pytest.raises(ProcessLookupError):  # ended, and its exit heard (no zombie left)
        os.kill(pid, 0)
    with background_reads(), pytest.raises(sqlite3.ProgrammingError):
        await db.fetchall("SELECT 1")


async def test_closing_ends_a_process_whose_given_up_read_never_answers(db, monkeypatch):
    """A read given up keeps its process until it answers; one that never does (stopped
    here, as if no core were ever free for it) holds the close up `CLOSE_WAIT_S` at most."""
    monkeypatch.setattr(read_process, "CLOSE_WAIT_S", 0.2)
    readers = ProcessReaders(db.path, 1)
    pid = await started_pid(readers)
    os.kill(pid, signal.SIGSTOP)
    given_up = asyncio.create_task(readers.fetchall("SELECT 1", ()))
    await asyncio.sleep(0.05)
    given_up.cancel()
    async with asyncio.timeout(HANG_S):
        await readers.close()
    assert not _running(pid)


ENDS_UNCLOSED = textwrap.dedent("""
    import asyncio, os, sys
    from pathlib import Path
    from store import open_database
    from store.background import background_reads

    async def main():
        db = await open_database(Path(sys.argv[1]))
        with background_reads():
            await db.fetchall("SELECT 1")
        print(db._background.processes[0].pid, flush=True)
        os._exit(0)  # as a killed bot: nothing closed

    asyncio.run(main())
""")


async def test_a_reader_process_ends_with_the_bots_process_however_that_ends(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-c", ENDS_UNCLOSED, str(tmp_path / "lama.sqlite3"), cwd=root,
        stdout=asyncio.subprocess.PIPE)
    async with asyncio.timeout(60):
        pid = int(await bot.stdout.readline())  # type: ignore[union-attr]
        assert await bot.wait() == 0
        while _running(pid):  # its stdin closed with the bot: it ends
            await asyncio.sleep(0.02)


def _running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie, ended but not yet reaped by init, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class Colour(StrEnum):  # the project's enums are str or int; the reader imports none of them
    BLUE = "blue"


async def test_an_enum_parameter_binds_as_its_value_as_on_any_connection(db):
    sql = "SELECT key FROM meta WHERE value = ?"
    here = await db.fetchall(sql, (Colour.BLUE,))
    with background_reads():
        there = await db.fetchall(sql, (Colour.BLUE,))
        named = await db.fetchall("SELECT :on AS on_", {"on": True})
    assert [r["key"] for r in there] == [r["key"] for r in here] == ["colour"]
    assert named[0]["on_"] == 1


async def test_a_number_sqlite_cannot_bind_is_refused_and_the_reader_reads_on(one_reader):
    pid = await started_pid(one_reader)
    with pytest.raises(OverflowError):
        await one_reader.fetchall("SELECT ?", (2**64,))
    assert len(await one_reader.fetchall("SELECT 1", ())) == 1
    assert one_reader.processes[0].pid == pid  # the same process


async def test_a_read_no_process_can_answer_fails_after_two_and_the_next_starts_another(
        one_reader, monkeypatch):
    pid = await started_pid(one_reader)

    class Garbled:
        @staticmethod
        def loads(body):
            raise MemoryError  # as a huge answer might

        dumps = staticmethod(read_process.pickle.dumps)
        HIGHEST_PROTOCOL = read_process.pickle.HIGHEST_PROTOCOL

    monkeypatch.setattr(read_process, "pickle", Garbled)
    async with asyncio.timeout(HANG_S):
        with pytest.raises(ReaderGone):
            await one_reader.fetchall("SELECT 1", ())
    monkeypatch.undo()
    async with asyncio.timeout(HANG_S):
        assert len(await one_reader.fetchall("SELECT 1", ())) == 1
    assert one_reader.processes[0].pid not in (None, pid)


async def test_a_snapshot_is_not_read_on_in_another_process_after_its_own_ended(db):
    with background_reads():
        async with db.read() as tx:
            assert await colour(tx) == "blue"
            process = db._background.processes[0]
            os.kill(process.pid, signal.SIGKILL)
            async with asyncio.timeout(HANG_S):
                while process.pid is not None:
                    await asyncio.sleep(0.01)
            await db.batch([colour_is("green")])
            with pytest.raises(ReaderGone):
                await colour(tx)  # it would see another state than its first statement's


async def test_a_read_behind_one_given_up_waits_for_it_in_the_line_not_in_the_pipe(one_reader):
    """The given-up read's process goes back to the others only once its answer came: the
    next read is not sent behind it, where the site's line of turns cannot see it."""
    pid = await started_pid(one_reader)
    process = one_reader.processes[0]
    async with stopped(pid):
        await given_up(one_reader)
        next_read = asyncio.create_task(one_reader.fetchall("SELECT 'next' AS said", ()))
        await asyncio.sleep(0.05)
        assert len(process._asked) == 1 and not next_read.done()  # the given-up one only
    async with asyncio.timeout(HANG_S):
        assert (await next_read)[0]["said"] == "next"


async def test_an_answer_nobody_waits_for_ends_unheard_without_an_error_logged(
        one_reader, caplog):
    pid = await started_pid(one_reader)
    async with stopped(pid):
        async with one_reader.transaction() as tx:
            pass  # its end is sent to a stopped process; nobody waits for its answer
        del tx
        os.kill(pid, signal.SIGKILL)
    async with asyncio.timeout(HANG_S):
        while one_reader.processes[0].pid is not None:
            await asyncio.sleep(0.01)
    gc.collect()
    await asyncio.sleep(0)
    assert "never retrieved" not in caplog.text


async def test_a_store_read_inside_a_background_block_is_refused_not_waited_for(db):
    """With one reader process it would wait for itself forever."""
    with background_reads():
        async with db.read() as tx:
            await colour(tx)
            async with asyncio.timeout(HANG_S):
                with pytest.raises(RuntimeError, match="Transaction"):
                    await db.fetchall("SELECT 1")
