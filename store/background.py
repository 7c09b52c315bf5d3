"""Reads in the background: the web site's pages read anew, which anyone may ask for as fast as
they like, read in reader processes of their own that run only on a core nobody else wants.

Why (issue 33): at 100,000 games a crowd of players' pages keeps a reader busy all the time.
At the lowest niceness a thread can take on its own, its thread still held a core: a move's
commit, woken on that core, waited there 2-5 ms (a scheduler slice) before it ran, and the
moves' p99 under such a crowd was 3x quiet. A thread of the `SCHED_IDLE` policy gives a core
up at once, but it shares the process's interpreter lock: pre-empted while it held it, with
every core busy, it stopped the event loop for up to 360 ms. So on SQLite these reads run in
processes of their own (store/read_process.py) at `SCHED_IDLE`.

A page (`web/limits.py` `read_turn`) reads in the block of `background_reads()`: every read
of its task (and of the tasks it starts) goes to the reader processes, one per turn.
Discord's reads (`/lama stats`, `/leaderboard`) and the games' never do. On PostgreSQL
nothing changes: the reads run in the server's own processes, not in the bot's.

The cost: where other programs keep every core busy, a page read anew waits for them (the
site answers "busy right now" past its deadline or its line); the games and Discord do not.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import Context, ContextVar, copy_context

MOST_BACKGROUND_READERS = 2

_in_background: ContextVar[bool] = ContextVar("store_background_reads", default=False)


def background_readers(cores: int) -> int:
    """How many background reads run at once (reader processes) on a machine of `cores`
    cores: half of them, at least one and at most two (each keeps a core's worth of the
    loop's page-making busy: more pages at once would take more of the loop from the moves)."""
    return max(1, min(MOST_BACKGROUND_READERS, cores // 2))


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, which a cpuset limits; a CPU
    quota such as `docker --cpus` is not seen), else the machine's."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


BACKGROUND_READERS = background_readers(usable_cores())


@contextmanager
def background_reads() -> Iterator[None]:
    """The block's reads (its task's, and those of tasks started in it) read in the
    background on SQLite."""
    token = _in_background.set(True)
    try:
        yield
    finally:
        _in_background.reset(token)


def in_background() -> bool:
    """Whether this task's reads are background reads now."""
    return _in_background.get()


def foreground_context() -> Context:
    """This task's context with its reads in the foreground: for a task whose read others
    share (a server's results version, which Discord's /leaderboard may wait for too)."""
    context = copy_context()
    context.run(_in_background.set, False)
    return context
