"""What `python -m benchmarks.bot` reports: summaries of a load run (latency percentiles,
moves per second, REST calls by route) and the table of targets it prints."""

from __future__ import annotations

import math
from collections import Counter

from benchmarks.botload import LoadResult

TARGETS = {
    "p99_ms_at_100": 25.0,
    "max_s_at_500": 3.0,
    "moves_per_s": 300.0,
    "rest_per_human_move": 1.5,
    "kb_per_game": 50.0,
    "startup_s_1000": 5.0,
}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def latency_summary(result: LoadResult) -> dict:
    out = {}
    for name, kinds in (("all", ()), ("button", ("button",)), ("slash", ("slash",))):
        values = result.measured(*kinds)
        if values:
            out[name] = {
                "n": len(values),
                "p50_ms": 1000 * percentile(values, 50),
                "p99_ms": 1000 * percentile(values, 99),
                "max_ms": 1000 * max(values),
                "over_3s": sum(1 for v in values if v > 3.0),
            }
    return out


def load_summary(result: LoadResult) -> dict:
    seconds = result.window[1] - result.window[0]
    moves = sum(result.moves.values())
    return {
        "games": result.config.games,
        "humans_per_game": result.config.humans,
        "ai_seats_per_game": result.config.ai_seats,
        "think_s": list(result.config.think),
        "slash_share": result.config.slash_share,
        "window_s": round(seconds, 2),
        "games_running_at_end": result.games_running,
        "moves": result.moves,
        "moves_per_s": moves / seconds,
        "latency": latency_summary(result),
        "bot_cpu_share": result.cpu_s / seconds,
        "bot_cpu_ms_per_move": 1000 * result.cpu_s / max(1, moves),
        "driver_cpu_share": result.driver_cpu_s / seconds,
        "bot_rss_kb": result.rss_kb,
        "rest": rest_summary(result),
        "errors": result.errors[:20],
    }


def route_label(call, dm_ids: set[int]) -> str:
    if call.route in (
        "POST /channels/{channel_id}/messages",
        "PATCH /channels/{channel_id}/messages/{message_id}",
    ):
        where = "DM" if int(call.params["channel_id"]) in dm_ids else "game channel"
        return f"{call.route} ({where})"
    return call.route


def rest_summary(result: LoadResult) -> dict:
    human = max(1, result.moves.get("human", 0))
    total = max(1, sum(result.moves.values()))
    limited = [c for c in result.rest_calls if c.rate_limited]
    routes = Counter(route_label(c, result.dm_channel_ids) for c in limited)
    table_edits = routes.get("PATCH /channels/{channel_id}/messages/{message_id} (game channel)", 0)
    seconds = result.window[1] - result.window[0]
    return {
        "rate_limited_calls": len(limited),
        "per_human_move": len(limited) / human,
        "per_move": len(limited) / total,
        "per_second": len(limited) / seconds,
        "interaction_callbacks": len(result.rest_calls) - len(limited),
        "moves_per_table_edit": total / table_edits if table_edits else None,
        "by_route_per_human_move": {r: n / human for r, n in routes.most_common()},
    }


# ------------------------------------------------------------------------ the table


def targets(report: dict) -> list[tuple[str, str, str, bool | None]]:
    rows = []

    def add(name, value, target, ok):
        rows.append((name, value, target, ok))

    lat = report.get("latency", {})
    if "100" in lat and "all" in lat["100"]["latency"]:
        p99 = lat["100"]["latency"]["all"]["p99_ms"]
        add("p99 first answer, 100 games", f"{p99:.1f} ms", "≤ 25 ms", p99 <= 25)
    if "500" in lat and "all" in lat["500"]["latency"]:
        worst = lat["500"]["latency"]["all"]["max_ms"] / 1000
        add("slowest first answer, 500 games", f"{worst:.2f} s", "< 3 s", worst < 3)
    if "throughput" in report:
        mps = report["throughput"]["moves_per_s"]
        add("durable moves/s (bot saturated)", f"{mps:.0f}", "≥ 300", mps >= 300)
    if "rest" in report:
        per = report["rest"]["default"]["rest"]["per_human_move"]
        add("rate-limited calls / human move (4 humans)", f"{per:.2f}", "≤ 1.5", per <= 1.5)
    if "memory" in report:
        kb = report["memory"]["rss_kb_per_game"]
        add("resident memory / active game", f"{kb:.1f} KB", "≤ 50 KB", kb <= 50)
    if "startup" in report:
        s = report["startup"]["restored_s"]
        add(f"start-up, {report['startup']['games']} unfinished games", f"{s:.2f} s", "≤ 5 s",
            s <= 5)
    return rows


def print_report(report: dict) -> None:
    lat = report.get("latency", {})
    if lat:
        print("\nconcurrent games | interactions | p50 ms | p99 ms | max ms | moves/s | bot CPU")
        for games, run in lat.items():
            a = run["latency"].get("all", {})
            print(
                f"{games:>16} | {a.get('n', 0):>12} | {a.get('p50_ms', 0):>6.1f} | "
                f"{a.get('p99_ms', 0):>6.1f} | {a.get('max_ms', 0):>6.0f} | "
                f"{run['moves_per_s']:>7.1f} | {100 * run['bot_cpu_share']:>6.0f}%"
            )
    if "rest" in report:
        for name, run in report["rest"].items():
            if not isinstance(run, dict):  # a hand-written note beside the runs
                print(f"\n{name}: {run}")
                continue
            rest = run["rest"]
            print(f"\nREST per human move, 4 humans, {name}: {rest['per_human_move']:.2f} "
                  f"(moves per table edit {rest['moves_per_table_edit'] or 0:.1f})")
            for route, n in rest["by_route_per_human_move"].items():
                print(f"  {n:6.3f}  {route}")
    if "engine" in report:
        e = report["engine"]
        print(f"\nsimulate: {e['simulate_rounds_per_s']:.0f} rounds/s")
        for level in ("normal", "hard"):
            if level in e["ai"]:
                print(f"AI {level}: median {e['ai'][level]['median_ms']:.2f} ms per decision")
    print("\ntarget                                     | measured   | target   | met")
    for name, value, target, ok in targets(report):
        print(f"{name:<42} | {value:<10} | {target:<8} | {'yes' if ok else 'NO'}")
