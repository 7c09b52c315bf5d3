"""The figures of benchmarks.yardstick: one run's summary, and the ratios LamaBot / bare bot
that issues 14 and 33 target, over every round of a run.

A round is one run of each bot, one right after the other. On a shared machine the load of
other work changes from minute to minute and moves a bot's CPU per interaction by ±50 %: a
ratio is taken within each round (the two runs that were side by side), and the run's ratio
is the median of its rounds'.
"""

from __future__ import annotations

import statistics

from benchmarks.bot_report import percentile
from benchmarks.latency_parts import Sample

TARGET_THROUGHPUT, TARGET_P99 = 0.5, 2.0  # LamaBot / bare (issue 14)
TARGET_CPU = 1.5  # LamaBot's CPU per interaction / the bare bot's (issue 33)
TARGET_FULL_GC_MS = 20.0  # LamaBot's longest full (generation 2) collection (issue 33)


def summary(samples: list[Sample], window: tuple[float, float], cpu: float,
            rate: float | None, errors: list[str]) -> dict:
    start, end = window
    inside = [s for s in samples if start <= s.due <= end]
    seconds = end - start

    waits = [s.sent - s.due for s in inside]

    def latencies(kinds: tuple[str, ...]) -> dict:
        values = [s.done - s.due for s in inside if not kinds or s.kind in kinds]
        if not values:
            return {"n": 0}
        return {"n": len(values), "p50_ms": round(1000 * percentile(values, 50), 2),
                "p99_ms": round(1000 * percentile(values, 99), 2),
                "max_ms": round(1000 * max(values), 2),
                "over_3s": sum(1 for v in values if v > 3.0)}  # Discord would refuse these

    return {
        "offered_per_s": rate,
        "window_s": round(seconds, 2),
        "interactions_per_s": round(len(inside) / seconds, 1),
        "latency": {"all": latencies(()), "move": latencies(("move",)),
                    "autocomplete": latencies(("autocomplete",))},
        "ticket_wait": {  # open loop: due, but every game was waiting for an answer
            "p50_ms": round(1000 * percentile(waits, 50), 2) if waits else None,
            "p99_ms": round(1000 * percentile(waits, 99), 2) if waits else None},
        "bot_cpu_share": round(cpu / seconds, 3),
        # the bot process's CPU time (every thread, user and system) over the interactions
        # it answered in the window
        "bot_cpu_ms_per_interaction": round(1000 * cpu / max(1, len(inside)), 3),
        "errors": errors,
    }


def round_ratios(lama: dict, bare: dict) -> dict:
    """One round's ratios LamaBot / bare: each loop's two runs were side by side."""
    figures: dict = {}
    if "closed" in lama and "closed" in bare:
        figures["throughput"] = _ratio(lama["closed"]["interactions_per_s"],
                                       bare["closed"]["interactions_per_s"])
    if "open" in lama and "open" in bare:
        figures["p99_at_offered_load"] = _ratio(lama["open"]["latency"]["all"]["p99_ms"],
                                                bare["open"]["latency"]["all"]["p99_ms"])
    for loop in ("closed", "open"):
        if loop in lama and loop in bare:
            figures[f"cpu_{loop}"] = _ratio(lama[loop]["bot_cpu_ms_per_interaction"],
                                            bare[loop]["bot_cpu_ms_per_interaction"])
    return figures


def ratios(report: dict) -> dict:
    """The run's ratios: each the median of its rounds' (`report["rounds"]`, each a dict of
    the two bots' runs; without rounds, the report's own runs are the one round)."""
    rounds = report.get("rounds") or [
        {"lamabot": report["lamabot"], "bare": report["bare"]}]
    each = [round_ratios(r["lamabot"], r["bare"]) for r in rounds]

    def median(name: str) -> float:
        return round(statistics.median(r[name] for r in each), 3)

    throughput, p99 = median("throughput"), median("p99_at_offered_load")
    cpu = {loop: median(f"cpu_{loop}") for loop in ("closed", "open")}
    fulls = [r["lamabot"][loop].get("bot_gc", {}).get("full", {})
             for r in rounds for loop in ("closed", "open") if loop in r["lamabot"]]
    full_gc = max((full.get("max_ms", 0.0) for full in fulls), default=0.0)
    return {
        "rounds": len(each),
        "throughput": throughput,
        "throughput_target": TARGET_THROUGHPUT,
        "throughput_met": throughput >= TARGET_THROUGHPUT,
        "p99_at_offered_load": p99,
        "p99_target": TARGET_P99,
        "p99_met": p99 <= TARGET_P99,
        # process CPU time / interactions answered, LamaBot's over the bare bot's (issue 33)
        "cpu_per_interaction": cpu,
        "cpu_target": TARGET_CPU,
        "cpu_met": all(value <= TARGET_CPU for value in cpu.values()),
        "cpu_each_round": [{loop: r[f"cpu_{loop}"] for loop in ("closed", "open")}
                           for r in each],
        # LamaBot's longest full collection in any window of the run: the pause (wall time,
        # which on a shared machine holds the time the bot waited for a core too) and the
        # collector's own CPU time
        "longest_full_gc_ms": full_gc,
        "longest_full_gc_cpu_ms": max((full.get("max_cpu_ms", 0.0) for full in fulls),
                                      default=0.0),
        "full_gc_target_ms": TARGET_FULL_GC_MS,
        "full_gc_met": full_gc <= TARGET_FULL_GC_MS,
    }


def _ratio(lama: float, bare: float) -> float:
    return round(lama / bare, 3) if bare else float("inf")
