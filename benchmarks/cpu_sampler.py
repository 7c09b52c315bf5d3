"""python -m benchmarks.cpu_sampler lamabot|bare: a bot with a CPU-time sampler (issue 33).

Benchmark-only instrumentation, as benchmarks/answer_trace.py: the same bot (bot.py, or the
bare bot of benchmarks/minimal_bot.py), and a timer (ITIMER_PROF) that fires every
millisecond of the process's CPU time. At each tick every thread that used CPU since the last
one is charged that CPU, on the stack it is in now (the main thread: the frame the tick
interrupted). So the samples weigh CPU, not wall time: a thread waiting for a core, a lock or
the disk is charged nothing, where py-spy's samples on a shared machine count a thread that
waits for a core as busy. The first SIGUSR2 starts sampling, the second stops it and writes
collapsed stacks (`frame;frame;… microseconds`) to the file LAMABOT_CPU_PROFILE names.
`benchmarks.yardstick --cpu-profile DIR` runs both bots this way, for its measured windows,
and sums the stacks by what the CPU was spent on (`where_the_cpu_goes`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType

PROFILE_VARIABLE = "LAMABOT_CPU_PROFILE"
TOGGLE = signal.SIGUSR2
TICK_S = 0.001
_ROOT = str(Path(__file__).resolve().parents[1]) + "/"

# What a stack's CPU was spent on: the first of these (in this order) that any of its frames
# below the event loop's own matches (so a REST call the renderer makes is the renderer's,
# and a commit waited for by a move is the store's). A stack that is only the loop's frames:
# the event loop itself (uvloop's C code: sockets, timers, callbacks).
CATEGORIES = (
    ("SQLite's thread (commits, reads)", r"aiosqlite/core"),
    ("renderer: tables", r"cogs/render/tables|cogs/table_view"),
    ("renderer: hands, pings, DMs", r"cogs/render/"),
    ("store, loop side (group commit, reads)", r"store/"),
    ("hand messages", r"cogs/(images|embeds|components|button_views)\.py"),
    ("game service (hosting, engine)", r"hosting/|lama/"),
    ("words (i18n)", r"i18n/|cogs/text\.py"),
    ("answering (discord.py, aiohttp)", r"discord/webhook/|discord/interactions\.py"),
    ("commands, checks, answers' clock (cogs)", r"cogs/"),
    ("REST calls (discord.py, aiohttp)", r"discord/http\.py|discord/abc\.py"),
    ("gateway, dispatch (discord.py)", r"discord/"),
    ("HTTP client (aiohttp)", r"aiohttp/|yarl/|multidict/"),
    ("event loop", r"asyncio/|uvloop/"),
)
LOOP_ITSELF = "event loop"


class Sampler:
    def __init__(self) -> None:
        self.stacks: Counter[str] = Counter()  # stack -> CPU microseconds
        self._cpu: dict[int, float] = {}
        self.running = False

    def toggle(self, _signum: int, frame: FrameType | None) -> None:
        if not self.running:
            self._cpu = self._thread_cpu()
            signal.signal(signal.SIGPROF, self._tick)
            signal.setitimer(signal.ITIMER_PROF, TICK_S, TICK_S)
            self.running = True
            return
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        self.running = False
        self.write(Path(os.environ[PROFILE_VARIABLE]))

    def write(self, path: Path) -> None:
        partial = path.with_name(path.name + ".part")
        partial.write_text("".join(f"{s} {round(us)}\n" for s, us in self.stacks.items() if us))
        partial.replace(path)

    def _tick(self, _signum: int, frame: FrameType | None) -> None:
        now = self._thread_cpu()
        frames = sys._current_frames()
        main = threading.main_thread().ident
        for ident, cpu in now.items():
            used = cpu - self._cpu.get(ident, cpu)
            if used > 0:
                where = frame if ident == main else frames.get(ident)
                self.stacks[_stack(where)] += used * 1e6
        self._cpu = now

    @staticmethod
    def _thread_cpu() -> dict[int, float]:
        cpu = {}
        for thread in threading.enumerate():
            if thread.ident is not None:
                with contextlib.suppress(OSError):  # it ended meanwhile
                    cpu[thread.ident] = time.clock_gettime(
                        time.pthread_getcpuclockid(thread.ident))
        return cpu


def _stack(frame: FrameType | None) -> str:
    names = []
    while frame is not None:
        code = frame.f_code
        path = code.co_filename.replace(_ROOT, "").split("site-packages/")[-1]
        names.append(f"{code.co_name} ({path})")
        frame = frame.f_back
    return ";".join(reversed(names)) or "?"


def where_the_cpu_goes(path: Path, interactions: int) -> dict[str, float]:
    """The sampled CPU by what it was spent on (`CATEGORIES`), in µs per interaction."""
    spent: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, us = line.rpartition(" ")
        spent[_category(stack.split(";"))] += float(us)
    return {name: round(us / max(1, interactions), 1) for name, us in spent.most_common()}


def _category(frames: list[str]) -> str:
    loop = [n for n, f in enumerate(frames) if "asyncio/runners.py" in f]
    below = frames[loop[-1] + 1:] if loop else frames
    if not below:
        return LOOP_ITSELF
    joined = ";".join(below)
    return next((name for name, pattern in CATEGORIES if re.search(pattern, joined)), "other")


def main() -> int:
    sampler = Sampler()
    signal.signal(TOGGLE, sampler.toggle)
    if sys.argv[1:] == ["bare"]:
        from benchmarks import minimal_bot

        minimal_bot.main()
        return 0
    import bot

    return bot.main([])


if __name__ == "__main__":
    sys.exit(main())
