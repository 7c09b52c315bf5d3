"""Where an interaction's latency goes, for benchmarks.yardstick (issue 14).

The driver's clock (due, sent, done), the loopback Discord's (dispatched on the gateway,
answer handled) and, with `--trace`, the bot's own (benchmarks/answer_trace.py: parsed,
answer begun) are one clock: perf_counter is the machine's monotonic clock in every process.
So each interaction's latency is cut into segments, and the slow ones show which segment
made them slow.
"""

from __future__ import annotations

import gc
import json
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.bot_report import percentile


@dataclass
class Sample:
    kind: str  # lobby, autocomplete, move
    due: float  # perf_counter when it was due (closed loop: when sent)
    sent: float
    done: float
    interaction_id: int = 0
    dispatched: float = 0.0  # the fake sent it on the gateway
    answered: float = 0.0  # the fake had handled the bot's first answer


def fake_view(fake, start: float, end: float) -> dict:
    """The loopback Discord's own clock on the same interactions: from its dispatch on the
    gateway to its handling of the first answer (no wait for a ticket, no driver wake-up)."""
    values = [r.answered_after for r in fake.interactions_by_token.values()
              if start <= r.started <= end and r.answered_after is not None]
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50_ms": round(1000 * percentile(values, 50), 2),
            "p99_ms": round(1000 * percentile(values, 99), 2)}


def bot_stamps(trace: Path) -> dict[int, tuple[float, float]]:
    path = trace.with_suffix(".stamps.json")
    if not path.exists():
        return {}
    return {int(k): tuple(v) for k, v in json.loads(path.read_text()).items()}


SEGMENTS = (
    ("ticket", "due until sent: every game was waiting, or the driver was late"),
    ("to_fake", "sent until the loopback Discord dispatched it on the gateway"),
    ("to_bot", "dispatched until the bot parsed it (the socket, the bot's loop)"),
    ("in_bot", "parsed until the bot began its answer request"),
    ("answer", "the answer request until the loopback Discord had handled it"),
    ("to_driver", "handled until the driver's player resumed"),
)


def decompose(samples: list[Sample], window: tuple[float, float],
              stamps: dict[int, tuple[float, float]]) -> dict:
    """Each interaction's latency cut into its segments (perf_counter is one clock for every
    process on the machine): their medians, and their means over the slowest 1 %."""
    start, end = window
    rows = []
    for s in samples:
        if not start <= s.due <= end or not s.dispatched:
            continue
        row = {"total": s.done - s.due, "ticket": s.sent - s.due,
               "to_fake": s.dispatched - s.sent, "to_driver": s.done - s.answered}
        if s.interaction_id in stamps:
            arrived, answer_start = stamps[s.interaction_id]
            row.update(to_bot=arrived - s.dispatched, in_bot=answer_start - arrived,
                       answer=s.answered - answer_start)
        else:
            row["bot_and_answer"] = s.answered - s.dispatched
        rows.append(row)
    if not rows:
        return {}
    rows.sort(key=lambda row: row["total"])
    slowest = rows[-max(1, len(rows) // 100):]
    names = [n for n in ("total", *(name for name, _ in SEGMENTS), "bot_and_answer")
             if any(n in row for row in rows)]

    def ms(values: list[float], how) -> float:
        return round(1000 * how(values), 2) if values else 0.0

    mean = statistics.fmean
    return {
        "n": len(rows),
        "p50_ms": {n: ms([r[n] for r in rows if n in r], statistics.median) for n in names},
        "slowest_1pct_mean_ms": {n: ms([r[n] for r in slowest if n in r], mean) for n in names},
    }


class GcPauses:
    """The driver's own garbage collections (the loopback Discord keeps every request it
    served: the more a bot sends, the longer the driver's full collections), while in use."""

    def __init__(self) -> None:
        self.full: list[float] = []
        self.total = 0.0
        self._started = 0.0

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        self.total += pause
        if info["generation"] == 2:
            self.full.append(pause)

    def figures(self) -> dict:
        return {"total_ms": round(1000 * self.total, 1), "full_collections": len(self.full),
                "longest_full_ms": round(1000 * max(self.full, default=0.0), 1)}
