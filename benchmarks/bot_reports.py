"""What a bot process under benchmarks.yardstick reports of itself, asked for around the
measured window (issue 33): its garbage collections (gc_watch.py: the report written when the
window ends, SIGUSR1) and, with `--cpu-profile DIR`, where its CPU went in the window
(benchmarks/cpu_sampler.py: sampling from SIGUSR2 to SIGUSR2). Asked for, not read at exit: a
bot stopped after a closed loop may take longer to close than it is given (the Discord calls
it still owes) and be killed before it writes anything.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from benchmarks.cpu_sampler import PROFILE_VARIABLE, TOGGLE, where_the_cpu_goes
from gc_watch import REPORT_SIGNAL, REPORT_VARIABLE, pauses


class BotReports:
    def __init__(self, workdir: Path, bot: str, loop: str, cpu_profile: Path | None) -> None:
        self._gc = workdir / f"gc-{bot}.json"
        self._cpu = cpu_profile / f"{bot}-{loop}.txt" if cpu_profile else None
        self._bot = bot
        self._gc_report: dict = {}

    def env(self) -> dict[str, str]:
        """The bot process's variables that make it report."""
        env = {REPORT_VARIABLE: str(self._gc)}
        if self._cpu is not None:
            env[PROFILE_VARIABLE] = str(self._cpu)
        return env

    def command(self, command: list[str]) -> list[str]:
        """The bot's command line: under the CPU sampler when profiling."""
        if self._cpu is None:
            return command
        return [sys.executable, "-m", "benchmarks.cpu_sampler", self._bot]

    def window_starts(self, pid: int) -> None:
        if self._cpu is not None:
            self._cpu.unlink(missing_ok=True)
            os.kill(pid, TOGGLE)

    async def window_ended(self, pid: int) -> None:
        if self._cpu is not None:
            os.kill(pid, TOGGLE)
            await _written(self._cpu)
        self._gc.unlink(missing_ok=True)
        os.kill(pid, REPORT_SIGNAL)
        if await _written(self._gc):
            self._gc_report = json.loads(self._gc.read_text())

    def figures(self, window: tuple[float, float], interactions: int) -> dict:
        """The bot's collections in the window; with a CPU profile, its CPU by what it was
        spent on, in µs per interaction."""
        figures = {"bot_gc": pauses(self._gc_report, *window) if self._gc_report else {}}
        if self._cpu is not None and self._cpu.exists():
            figures["cpu_us_per_interaction"] = where_the_cpu_goes(self._cpu, interactions)
        return figures


async def _written(path: Path, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if path.exists():
            return True
        await asyncio.sleep(0.05)
    return False
