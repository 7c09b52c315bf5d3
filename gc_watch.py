"""The garbage collector's pauses in this process, written to a file at exit (opt-in).

A benchmark sets `LAMABOT_GC_REPORT=<path>` for the bot process it starts (bot.py calls
`watch_from_env`; so does the bare bot of benchmarks/minimal_bot.py), sends it SIGUSR1 when its
window ends and reads the file (also written when the process exits; a bot stopped after a
load can take longer to close than a benchmark waits for it, showing what it owes Discord):
every collection, with its generation, when it began
(`time.perf_counter`: one clock for every process on the machine, so the benchmark keeps the
collections of its own measured window), how long it paused the thread and how much CPU it
took (`time.thread_time`: on a shared machine a pause also holds the time the thread waited
for a core, which the collector's own cost does not). Without the variable nothing is
installed: a callback on every collection costs a little.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

REPORT_VARIABLE = "LAMABOT_GC_REPORT"
REPORT_SIGNAL = signal.SIGUSR1  # write the report now


class GcWatch:
    """Each collection as [generation, began (perf_counter), seconds paused, CPU seconds,
    objects collected]."""

    def __init__(self) -> None:
        self.collections: list[list[Any]] = []
        self._began = self._cpu = 0.0

    def install(self) -> None:
        gc.callbacks.append(self._callback)

    def uninstall(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began, self._cpu = time.perf_counter(), time.thread_time()
            return
        pause, cpu = time.perf_counter() - self._began, time.thread_time() - self._cpu
        self.collections.append([info["generation"], round(self._began, 6), round(pause, 6),
                                 round(cpu, 6), info["collected"]])

    def report(self) -> dict[str, Any]:
        return {
            "collections": self.collections,
            "threshold": gc.get_threshold(),
            "frozen": gc.get_freeze_count(),
            "tracked": len(gc.get_objects()),
        }

    def write(self, path: Path) -> None:
        """Whole or not at all: a reader never finds half a report."""
        partial = path.with_name(path.name + ".part")
        partial.write_text(json.dumps(self.report()))
        partial.replace(path)


def watch_from_env(env: dict[str, str] | None = None) -> GcWatch | None:
    """Watch this process's collections when the environment names a report file; the
    report is written when the process exits."""
    target = (os.environ if env is None else env).get(REPORT_VARIABLE, "").strip()
    if not target:
        return None
    watch = GcWatch()
    watch.install()
    path = Path(target)
    atexit.register(watch.write, path)
    signal.signal(REPORT_SIGNAL, lambda _signum, _frame: watch.write(path))
    return watch


def pauses(report: dict[str, Any], start: float, end: float) -> dict[str, Any]:
    """The collections that began in [start, end], by generation ("full" is generation 2):
    how many, their longest and total pause, and their longest and total CPU time (ms)."""
    inside = [c for c in report.get("collections", []) if start <= c[1] <= end]
    figures: dict[str, Any] = {}
    for generation, name in ((2, "full"), (1, "gen1"), (0, "young")):
        mine = [c for c in inside if c[0] == generation]
        figures[name] = {"n": len(mine),
                         "max_ms": _ms(max((c[2] for c in mine), default=0.0)),
                         "max_cpu_ms": _ms(max((c[3] for c in mine), default=0.0)),
                         "total_ms": _ms(sum(c[2] for c in mine)),
                         "total_cpu_ms": _ms(sum(c[3] for c in mine))}
    figures["pause_total_ms"] = _ms(sum(c[2] for c in inside))
    return figures


def _ms(seconds: float) -> float:
    return round(1000 * seconds, 2)
