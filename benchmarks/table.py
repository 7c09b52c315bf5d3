"""python -m benchmarks.table: the table keeps up within Discord's limits (issue 11, point 3).

The real bot.py against the loopback Discord (Discord's rate limits on: 50 calls/s per token,
5 creates and 5 edits per 5 s per channel), 4-human games, humans thinking, then:

- **light** (below 20 human moves/s): how long after a move the game's table is edited
  (p50/p90: from the move's interaction to the table's next edit or post in that channel),
  and the longest time any player saw two messages with live hand buttons;
- **brisk, buttons** and **brisk, slash** (100 games): the most rate-limited calls in any 1 s
  window, 429s met, and rate-limited calls per human move, for players who press their DM
  hand's buttons and for players who use /play, /draw, /quit;
- each run: the table's posts and edits per move, how many of them uploaded its picture
  (per move: an edit that changes only text keeps it), and new DMs per human move.
Figures: benchmarks/table.json; docs/performance.md explains them.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import statistics
import sys
import tempfile
from pathlib import Path

from .botload import LoadConfig, LoadResult, run_load

OUT = Path(__file__).with_name("table.json")
TABLE_ROUTES = ("POST /channels/{channel_id}/messages",
                "PATCH /channels/{channel_id}/messages/{message_id}")


def _table_lags(result: LoadResult) -> list[float]:
    """Seconds from each human move to the next table post/edit in its channel."""
    by_channel: dict[int, list[float]] = {}
    for call in result.rest_calls:
        if call.route in TABLE_ROUTES and call.status == 200:
            channel = int(call.params["channel_id"])
            if channel not in result.dm_channel_ids:
                by_channel.setdefault(channel, []).append(call.time)
    lags = []
    start, end = result.window
    for move in result.interactions:
        if move.kind not in ("button", "slash") or not start <= move.at <= end:
            continue
        times = sorted(by_channel.get(move.channel_id, ()))
        i = bisect.bisect_left(times, move.clock)
        if i < len(times):
            lags.append(times[i] - move.clock)
    return lags


def _busiest_second(result: LoadResult) -> int:
    times = sorted(c.time for c in result.rest_calls if c.rate_limited)
    best, left = 0, 0
    for right, t in enumerate(times):
        while times[left] <= t - 1.0:
            left += 1
        best = max(best, right - left + 1)
    return best


def _uploads(result: LoadResult) -> dict:
    """The table's posts and edits in the games' channels, and how many uploaded its picture
    (an edit that changes only text keeps it: cogs/render/table_pictures.py); DMs sent."""
    shown = [c for c in result.rest_calls if c.route in TABLE_ROUTES and c.status == 200
             and int(c.params["channel_id"]) not in result.dm_channel_ids]
    uploads = sum(1 for c in shown if any(f.filename == "table.png" for f in c.files))
    dms = sum(1 for c in result.rest_calls if c.route == TABLE_ROUTES[0] and c.status == 200
              and int(c.params["channel_id"]) in result.dm_channel_ids)
    moves = max(1, sum(result.moves.values()))
    return {"table_calls_per_move": round(len(shown) / moves, 3),
            "table_picture_uploads_per_move": round(uploads / moves, 3),
            "new_dms_per_human_move": round(dms / max(1, result.moves.get("human", 0)), 3)}


def summary(result: LoadResult) -> dict:
    seconds = result.window[1] - result.window[0]
    human_moves = result.moves.get("human", 0)
    limited = sum(1 for c in result.rest_calls if c.rate_limited)
    lags = _table_lags(result)
    quantiles = statistics.quantiles(lags, n=10) if len(lags) >= 10 else [float("nan")] * 9
    return {
        "games": result.config.games,
        "think_s": list(result.config.think),
        "slash_share": result.config.slash_share,
        "human_moves_per_s": round(human_moves / seconds, 2),
        "table_lag_p50_s": round(statistics.median(lags), 3) if lags else None,
        "table_lag_p90_s": round(quantiles[8], 3),
        "longest_two_live_hands_s": round(result.longest_stale_s, 2),
        "busiest_second_calls": _busiest_second(result),
        "rate_limit_hits": result.rate_limit_hits,
        "rate_limited_calls_per_human_move": round(limited / max(1, human_moves), 3),
        **_uploads(result),
        "errors": result.errors[:10],
    }


RUNS = {
    "light": LoadConfig(games=20, humans=4, ai_seats=0, think=(2.0, 4.0), slash_share=0.5,
                        ramp=3.0, warmup=5.0, duration=30.0),
    "brisk_buttons": LoadConfig(games=100, humans=4, ai_seats=0, think=(1.5, 3.0),
                                slash_share=0.0, ramp=5.0, warmup=20.0, duration=30.0),
    "brisk_slash": LoadConfig(games=100, humans=4, ai_seats=0, think=(1.5, 3.0),
                              slash_share=1.0, ramp=5.0, warmup=20.0, duration=30.0),
}


async def run(names: list[str]) -> dict:
    report = {}
    with tempfile.TemporaryDirectory() as workdir:
        for name in names:
            print(f"  table: {name} ...", flush=True)
            report[name] = summary(await run_load(RUNS[name], Path(workdir)))
            print("   ", json.dumps(report[name]), flush=True)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", default=list(RUNS), choices=[*RUNS, []])
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    report = json.loads(OUT.read_text()) if OUT.exists() else {}
    report.update(asyncio.run(run(args.runs or list(RUNS))))  # the runs not made stay as they were
    OUT.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
