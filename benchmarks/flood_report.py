"""benchmarks.flood's figures: percentiles of its samples, and the table it prints."""

from __future__ import annotations

import statistics
from collections import Counter

TARGETS = "targets: >= 200 pages/s; /leaderboard p99 <= 200 ms; move p99 <= 2x quiet"
NOTHING: dict = {}


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def summary(times: list[float]) -> dict:
    if not times:
        return {"count": 0}
    ordered = sorted(times)
    return {"count": len(ordered), "median_ms": round(statistics.median(ordered), 1),
            "p99_ms": round(percentile(ordered, 0.99), 1), "max_ms": round(ordered[-1], 1)}


def web_summary(answers: list[tuple[int, float]], seconds: float) -> dict:
    """The clients' answers: how many of each status, pages (200) a second, their times."""
    statuses = Counter(status for status, _ in answers)
    ok = [ms for status, ms in answers if status == 200]
    refused = [ms for status, ms in answers if status == 429]
    return {"statuses": {str(s): n for s, n in sorted(statuses.items())},
            "ok_per_s": round(len(ok) / seconds, 1),
            "ok": summary(ok), "refused": summary(refused)}


def _ms(figures: dict, key: str) -> str:
    return f"{figures[key]:.1f}" if key in figures else "-"


def print_report(report: dict) -> None:
    print(f"{report['games']:,} finished games; {report['clients']} web clients for "
          f"{report['flood_s']} s per mix; {report['move_games']} games moving; "
          f"/leaderboard every {report['board_every_s']} s, /lama stats every "
          f"{report.get('stats_every_s', '-')} s. {TARGETS}")
    print(f"{'config':<9}{'phase':<13}{'pages/s':>8}{'page p50':>9}{'page p99':>9}{'429':>6}"
          f"{'move p50':>9}{'move p99':>9}{'move max':>9}{'lb p50':>8}{'lb p99':>8}"
          f"{'st p50':>8}{'st p99':>8}")
    for config, phases in report["configs"].items():
        for phase, figures in phases.items():
            web = figures.get("web", {})
            page = web.get("ok", {})
            move, board = figures["move"], figures["board"]
            stats = figures.get("stats", NOTHING)
            refused = web.get("statuses", {}).get("429", "-") if web else "-"
            print(f"{config:<9}{phase:<13}{web.get('ok_per_s', '-'):>8}"
                  f"{_ms(page, 'median_ms'):>9}{_ms(page, 'p99_ms'):>9}{refused:>6}"
                  f"{_ms(move, 'median_ms'):>9}{_ms(move, 'p99_ms'):>9}{_ms(move, 'max_ms'):>9}"
                  f"{_ms(board, 'median_ms'):>8}{_ms(board, 'p99_ms'):>8}"
                  f"{_ms(stats, 'median_ms'):>8}{_ms(stats, 'p99_ms'):>8}")
