"""The garbage collector's pauses, reported by the bot process when a benchmark asks
(gc_watch.py, LAMABOT_GC_REPORT): what benchmarks.yardstick reads for its GC figures."""

from __future__ import annotations

import asyncio
import gc
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import gc_watch
from loopback.running import BOT_TOKEN, run_bot_process

REPO = Path(__file__).resolve().parents[2]


def test_every_collection_is_recorded_with_its_pause_and_cpu_and_counted_by_window():
    watch = gc_watch.GcWatch()
    watch.install()
    try:
        before = time.perf_counter()
        gc.collect()
        gc.collect(0)
        after = time.perf_counter()
    finally:
        watch.uninstall()
    mine = [c for c in watch.collections if before <= c[1] <= after]
    assert [c[0] for c in mine] == [2, 0]
    assert all(c[2] >= 0 and c[3] >= 0 for c in mine)
    report = watch.report()
    figures = gc_watch.pauses(report, before, after)
    assert figures["full"]["n"] == 1 and figures["young"]["n"] == 1
    assert figures["full"]["max_ms"] == round(1000 * mine[0][2], 2)
    assert gc_watch.pauses(report, after + 1, after + 2)["full"]["n"] == 0


def test_nothing_is_watched_without_the_variable():
    callbacks = list(gc.callbacks)
    assert gc_watch.watch_from_env({}) is None
    assert gc.callbacks == callbacks


def test_a_process_writes_its_report_when_it_exits(tmp_path):
    report = tmp_path / "gc.json"
    code = "import gc, gc_watch; gc_watch.watch_from_env(); gc.collect()"
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True, timeout=60,
                   env={"LAMABOT_GC_REPORT": str(report), "PATH": "/usr/bin:/bin"})
    written = json.loads(report.read_text())
    assert [c[0] for c in written["collections"]].count(2) >= 1


async def test_the_bot_process_reports_its_collections_when_asked_and_when_stopped(
        fake_discord, tmp_path):
    """SIGUSR1 when a benchmark's window ends (the process goes on); SIGINT, as the
    benchmarks stop it: discord.py closes, then the report is written again."""
    report = tmp_path / "gc.json"
    env = {"DISCORD_TOKEN": BOT_TOKEN, "DATABASE_PATH": str(tmp_path / "lama.sqlite3"),
           "LAMABOT_GC_REPORT": str(report)}
    async with run_bot_process(fake_discord, [sys.executable, "bot.py"], env=env,
                               cwd=REPO) as process:
        for _ in range(600):
            if "Logged in as" in process.output():
                break
            await asyncio.sleep(0.05)
        for _ in range(100):  # until it has frozen its start-up objects (on_ready's end)
            asked = await _asked(process, report)
            if asked["frozen"]:
                break
        assert process.process.returncode is None  # it plays on
        report.unlink()
        process.process.send_signal(signal.SIGINT)
        await asyncio.wait_for(process.process.wait(), 60)
    written = json.loads(report.read_text())
    # at least the one the bot makes once connected, before freezing what start-up built
    assert any(c[0] == 2 for c in asked["collections"]) and asked["frozen"] > 0
    assert len(written["collections"]) >= len(asked["collections"])


async def _asked(process, report):
    """The report, written when asked (SIGUSR1)."""
    report.unlink(missing_ok=True)
    process.process.send_signal(gc_watch.REPORT_SIGNAL)
    for _ in range(200):
        if report.exists():
            return json.loads(report.read_text())
        await asyncio.sleep(0.05)
    raise AssertionError("no report")
