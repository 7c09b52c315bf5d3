"""A reader process of the web site's pages read anew (store/read_process.py starts it).

Run as `python -I read_worker.py <database URI>`: the standard library only, so it starts in
a few tens of milliseconds and shares nothing with the bot's process but the file. It runs
only on a core nobody else wants (`SCHED_IDLE`; where that is refused, at niceness 19), and
its interpreter lock is its own: the bot's event loop never waits for it.

It answers requests from its stdin on its stdout, one at a time, in order. Each message is
a 4-byte big-endian length and a pickle (the bot's own process on the other end):
- request `(op, snapshot, sql, params)`: `op` "all" (every row), "one" (the first row, or
  None) or "run" (a statement; the rows it changed); `snapshot` True: inside a read
  transaction, begun (BEGIN DEFERRED) if none is open. `("end",)`: end the transaction.
- answer `(True, columns, rows)` ("all"), `(True, columns, row or None)` ("one"), `(True,
  None, count)` ("run"), or `(False, error type name, message)`: SQLite's error, or one of a
  parameter, by name (the process reads on).
It ends at the end of its stdin: when the bot closes it, or when the bot's process ends.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sqlite3
import struct
import sys
from typing import Any, BinaryIO

LENGTH = struct.Struct(">I")


def lowest_priority() -> None:
    """Run only on a core nobody else wants (Linux); elsewhere, or refused, niceness 19."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(19)


def read_frame(stream: BinaryIO) -> bytes | None:
    """The next message, unread, or None at the end of the stream."""
    header = stream.read(LENGTH.size)
    if len(header) < LENGTH.size:
        return None
    return stream.read(LENGTH.unpack(header)[0])


def write_message(stream: BinaryIO, message: Any) -> None:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(LENGTH.pack(len(body)) + body)
    stream.flush()


def answer(conn: sqlite3.Connection, frame: bytes) -> tuple[Any, ...]:
    """What one request reads, or its error by name: SQLite's, or a parameter it cannot
    bind (a number too large) or that this process cannot read. Never the process's end."""
    try:
        return (True, *_read(conn, pickle.loads(frame)))
    except Exception as error:
        return False, type(error).__name__, str(error)


def _read(conn: sqlite3.Connection, request: tuple[Any, ...]) -> tuple[Any, Any]:
    if request[0] == "end":
        if conn.in_transaction:
            conn.execute("ROLLBACK")  # a read transaction: nothing to keep
        return None, None
    op, snapshot, sql, params = request
    if snapshot and not conn.in_transaction:
        conn.execute("BEGIN DEFERRED")
    cursor = conn.execute(sql, params)
    columns = tuple(d[0] for d in cursor.description or ())
    if op == "all":
        return columns, cursor.fetchall()
    if op == "one":
        row = cursor.fetchone()
        cursor.close()
        return columns, row
    return None, cursor.rowcount


def serve(uri: str, requests: BinaryIO, answers: BinaryIO) -> None:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        while (frame := read_frame(requests)) is not None:
            write_message(answers, answer(conn, frame))
    finally:
        conn.close()


def main() -> None:
    lowest_priority()
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        serve(sys.argv[1], sys.stdin.buffer, sys.stdout.buffer)


if __name__ == "__main__":
    main()
