"""python -m benchmarks [name ...]: run every benchmark (or the named ones), one after another.

A tiny dispatcher: each benchmark lives in its own module with `main(argv) -> int`.
"""

from __future__ import annotations

import importlib
import sys

# benchmarks/<name>.py
BENCHMARKS = ("moves", "bot", "leaderboard", "ratings", "web", "flood", "table", "yardstick",
              "answer_http", "processes", "stall", "takeover", "activity", "reminders")


def main(argv: list[str] | None = None) -> int:
    names = (sys.argv[1:] if argv is None else argv) or list(BENCHMARKS)
    status = 0
    for name in names:
        try:
            module = importlib.import_module(f"benchmarks.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"benchmarks.{name}":
                raise
            print(f"benchmarks.{name}: not there yet, skipped", file=sys.stderr)
            continue
        print(f"== benchmarks.{name}", flush=True)
        status = max(status, module.main([]))
    return status


if __name__ == "__main__":
    sys.exit(main())
