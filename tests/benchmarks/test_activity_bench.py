"""`python -m benchmarks.activity` in miniature: its clients' process connects, every move's
frame is timed against its commit, and the report holds latency and memory figures."""

from __future__ import annotations

import pytest

from benchmarks.activity import run

pytestmark = pytest.mark.timeout(120)


async def test_a_short_run_times_every_frame_and_weighs_the_connections():
    result = await run(games_n=2, clients=5, seconds=1.0, rate=4.0)
    assert result["moves"] >= 4 and result["frames"] > result["moves"]
    latency = result["latency_ms"]
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"]
    assert set(result["memory"]) == {"rss_kb_per_connection", "heap_kb_per_connection"}
