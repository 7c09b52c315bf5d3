"""python -m benchmarks.answer_trace: bot.py with a stopwatch on the way to each answer.

Benchmark-only instrumentation (issue 14): the same bot, with the steps between an
interaction's arrival (discord.py's parse of INTERACTION_CREATE) and the end of its answer
(the interaction callback request) timed per interaction, plus the event loop's lag and the
garbage collector's pauses. At exit the figures go, as JSON, to the file named by
LAMABOT_TRACE. `benchmarks.yardstick --trace` runs LamaBot this way.

Each timed step adds its wall time to the interaction it serves (a context variable set at
arrival: the tasks discord.py starts for it inherit it); "wait" steps are the time between
steps in which the interaction's task was not running its own code (the loop busy
elsewhere, a lock, a queue).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import contextvars
import functools
import gc
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import discord
import discord.state

from benchmarks.bot_report import percentile

_current: contextvars.ContextVar[dict | None] = contextvars.ContextVar("trace", default=None)
_done: dict[str, list[dict]] = defaultdict(list)  # kind -> finished interactions' steps
_lags: list[float] = []
_gc_pauses: list[float] = []
_full_collections: list[float] = []
_full_collections_cpu: list[float] = []
_full_spans: list[tuple[float, float]] = []
_db: dict[str, list[tuple[float, float, float]]] = defaultdict(list)  # caller -> timings


def _timed(name: str, function):
    @functools.wraps(function)
    async def wrapper(*args, **kwargs):
        steps = _current.get()
        start = time.perf_counter()
        try:
            return await function(*args, **kwargs)
        finally:
            if steps is not None:
                steps[name] = steps.get(name, 0.0) + time.perf_counter() - start
    return wrapper


def _answer(function):
    """The interaction's first answer: its total ends here."""
    @functools.wraps(function)
    async def wrapper(self, *args, **kwargs):
        steps = _current.get()
        start = time.perf_counter()
        try:
            return await function(self, *args, **kwargs)
        finally:
            end = time.perf_counter()
            if steps is not None and "total" not in steps:
                steps["answer"] = end - start
                steps["answer_start"] = start
                steps["total"] = end - steps["arrived"]
                kind = steps.pop("kind")
                _done[kind].append(steps)
    return wrapper


def _arrival(parse):
    @functools.wraps(parse)
    def wrapper(self, data):
        kind = {2: "command", 3: "button", 4: "autocomplete"}.get(data["type"], "other")
        name = (data.get("data") or {}).get("name", "")
        if kind == "command" and name in ("play", "draw", "quit"):
            kind = "move"
        _current.set({"kind": kind, "id": int(data["id"]), "arrived": time.perf_counter()})
        return parse(self, data)
    return wrapper


def _started(function):
    """The tree's check: the first code that runs in the interaction's own task."""
    @functools.wraps(function)
    async def wrapper(self, interaction):
        steps = _current.get()
        if steps is not None:
            steps["to_task"] = time.perf_counter() - steps["arrived"]
        return await function(self, interaction)
    return wrapper


def _store_caller() -> str:
    """The store function that opened the transaction (the first frame in store/ that is
    not the backend's own)."""
    frame = sys._getframe(2)
    while frame is not None:
        path = frame.f_code.co_filename
        if "/store/" in path and not path.endswith(("sqlite.py", "backend.py", "contextlib.py")):
            return f"{Path(path).stem}.{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


def _traced_transactions(locked):
    """Each transaction of SQLite's writer connection (reads have connections of their own,
    store/sqlite_reads.py): waiting for the connection and BEGIN, its body, its COMMIT.
    Whatever `locked` takes is passed on (it took a `reading` flag once)."""
    @contextlib.asynccontextmanager
    async def wrapper(self, *args, **kwargs):
        caller = "write " + _store_caller()
        start = time.perf_counter()
        async with locked(self, *args, **kwargs) as tx:
            entered = time.perf_counter()
            yield tx
            left = time.perf_counter()
        _db[caller].append((entered - start, left - entered, time.perf_counter() - left))
    return wrapper


def _traced_batches(run):
    @functools.wraps(run)
    async def wrapper(self, units):
        start = time.perf_counter()
        try:
            return await run(self, units)
        finally:
            _db["group commit"].append((0.0, time.perf_counter() - start, float(len(units))))
    return wrapper


def _traced_bodies(run_body):
    """Each `Database.write` body's time in SQLite's thread (it ran in one trip there)."""
    @functools.wraps(run_body)
    def wrapper(body, conn):
        name = getattr(getattr(body, "func", body), "__qualname__", "body")
        start = time.perf_counter()
        try:
            return run_body(body, conn)
        finally:  # in SQLite's thread: appending under the GIL is safe
            _db[f"write body {name}"].append((0.0, time.perf_counter() - start, 0.0))
    return wrapper


def timed_steps() -> tuple[tuple[Any, str, str], ...]:
    """(owner, attribute, step) of each step of the answer path `install` times."""
    from cogs import images
    from hosting import listeners, loader, service, table
    from store import games

    return (
        (service.GameService, "find_route", "route"),
        (table.Table, "human_move", "move"),
        (loader.GameLoader, "hosted", "move.hosted"),
        (table.Table, "_human_move_locked", "move.locked"),
        (games.GameStore, "commit_move", "move.locked.commit"),
        (listeners.Listeners, "publish", "move.publish"),
        (images, "hand_message", "hand"),
    )


def install() -> None:
    from cogs import tree
    from store import sqlite

    state = discord.state.ConnectionState
    state.parse_interaction_create = _arrival(state.parse_interaction_create)
    response = discord.InteractionResponse
    response.send_message = _answer(response.send_message)
    response.edit_message = _answer(response.edit_message)
    response.autocomplete = _answer(response.autocomplete)
    response.defer = _answer(response.defer)
    tree.LamaTree.interaction_check = _started(tree.LamaTree.interaction_check)
    for owner, name, step in timed_steps():
        setattr(owner, name, _timed(step, getattr(owner, name)))
    database = sqlite.SqliteDatabase
    database._locked = _traced_transactions(database._locked)
    database._run_units = _traced_batches(database._run_units)
    sqlite.run_body = _traced_bodies(sqlite.run_body)
    gc.callbacks.append(_gc_timer())
    atexit.register(_write)


def _gc_timer():
    started: list[float] = []

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.perf_counter(), time.thread_time()]
        elif started:
            pause = time.perf_counter() - started[0]
            _gc_pauses.append(pause)
            if info["generation"] == 2:  # wall time, and CPU time (the same under no load)
                _full_collections.append(pause)
                _full_spans.append((started[0], started[0] + pause))
                _full_collections_cpu.append(time.thread_time() - started[1])
    return callback


async def watch_lag(every: float = 0.005) -> None:
    """How late the loop wakes a task that asked to sleep `every` seconds."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(every)
        _lags.append(time.perf_counter() - start - every)


def _stats(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    return {"n": len(values), "mean_ms": round(1000 * sum(values) / len(values), 2),
            "p50_ms": round(1000 * percentile(values, 50), 2),
            "p99_ms": round(1000 * percentile(values, 99), 2),
            "max_ms": round(1000 * max(values), 2)}


def report() -> dict:
    out: dict = {}
    for kind, runs in _done.items():
        runs = runs[len(runs) // 4:]  # the warm-up's quarter left out
        names = sorted({name for steps in runs for name in steps} - _STAMPS)
        out[kind] = {name: _stats([s.get(name, 0.0) for s in runs]) for name in names}
        out[kind]["slowest_1pct_mean_ms"] = _slowest_mean(runs, names)
    out["db"] = {caller: {"n": len(t), "enter": _stats([e for e, _, _ in t]),
                          "body": _stats([b for _, b, _ in t]),
                          "commit_or_batches": _stats([c for _, _, c in t])}
                 for caller, t in sorted(_db.items(), key=lambda item: -len(item[1]))}
    out["loop_lag"] = _stats(_lags[len(_lags) // 4:])
    out["gc_pause"] = _stats(_gc_pauses)
    out["gc_pause"]["total_s"] = round(sum(_gc_pauses), 3)
    out["gc_full"] = _stats(_full_collections)
    out["gc_full_cpu"] = _stats(_full_collections_cpu)
    out["gc_pause"]["generations"] = gc.get_stats()
    out["gc_pause"]["tracked_objects"] = len(gc.get_objects())
    out["gc_pause"]["frozen_objects"] = gc.get_freeze_count()
    kinds: dict[str, int] = defaultdict(int)
    for obj in gc.get_objects():
        kinds[f"{getattr(type(obj), '__module__', '')}.{type(obj).__name__}"] += 1
    out["gc_pause"]["tracked_by_type"] = dict(sorted(kinds.items(), key=lambda kv: -kv[1])[:25])
    return out


def _slowest_mean(runs: list[dict], names: list[str]) -> dict:
    """Each step's mean over the slowest 1% of interactions (by total): what their time was."""
    slowest = sorted(runs, key=lambda steps: steps.get("total", 0.0))[-max(1, len(runs) // 100):]
    means = {name: round(1000 * sum(s.get(name, 0.0) for s in slowest) / len(slowest), 2)
             for name in names}
    means["share_during_a_full_collection"] = round(sum(
        any(start < s["arrived"] + s["total"] and s["arrived"] < end for start, end in _full_spans)
        for s in slowest) / len(slowest), 3)
    return means


_STAMPS = {"arrived", "answer_start", "id"}  # per interaction, not durations


def _write() -> None:
    target = os.environ.get("LAMABOT_TRACE")
    if target:
        Path(target).write_text(json.dumps(report(), indent=2) + "\n")
        stamps = {steps["id"]: (steps["arrived"], steps["answer_start"])
                  for runs in _done.values() for steps in runs}
        Path(target).with_suffix(".stamps.json").write_text(json.dumps(stamps))


def main() -> int:
    import bot

    install()
    original_setup = bot.LamaBot.setup_hook

    async def setup_hook(self) -> None:
        await original_setup(self)
        self._lag_watch = asyncio.create_task(watch_lag())

    bot.LamaBot.setup_hook = setup_hook
    return bot.main([])


if __name__ == "__main__":
    sys.exit(main())
