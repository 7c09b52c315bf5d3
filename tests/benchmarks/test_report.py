"""What `python -m benchmarks.bot` prints: a partial run (`--only engine`) merges its section
into the committed benchmarks/bot.json and prints the whole report, notes included."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.bot_report import print_report

COMMITTED = Path(__file__).resolve().parents[2] / "benchmarks" / "bot.json"


def rest_run(per_human_move: float) -> dict:
    return {
        "rest": {
            "per_human_move": per_human_move,
            "moves_per_table_edit": 2.0,
            "by_route_per_human_move": {"POST /channels/{channel_id}/messages (DM)": 1.0},
        }
    }


def test_a_note_beside_the_rest_runs_is_printed_as_a_note_not_read_as_a_run(capsys):
    report = {"rest": {"default": rest_run(1.25), "note": "re-measured with TABLE_EDIT_INTERVAL=7"}}
    print_report(report)
    out = capsys.readouterr().out
    assert "REST per human move, 4 humans, default: 1.25" in out
    assert "note: re-measured with TABLE_EDIT_INTERVAL=7" in out


def test_the_committed_figures_print(capsys):
    print_report(json.loads(COMMITTED.read_text(encoding="utf-8")))
    out = capsys.readouterr().out
    assert "REST per human move, 4 humans, default:" in out
    assert "rate-limited calls / human move (4 humans)" in out
