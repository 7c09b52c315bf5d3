"""The languages' CLDR data (Babel: lists, numbers, months) loads at start-up, before the bot
freezes what lives as long as the process: loaded at first use, its ~9,000 objects joined
what every full garbage collection scans (issue 14)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_FORMAT_EVERYTHING = """
import gc
from datetime import UTC, date, datetime
from babel.dates import format_date, format_datetime
import i18n
from i18n.formatting import warm_up
{warm}
gc.collect()
before = len(gc.get_objects())
for locale in i18n.SUPPORTED_LOCALES:
    i18n.format_list(["Ana", "Bob", "Cyril"], locale)
    i18n.format_list(["3", "4"], locale, style="or")
    i18n.format_decimal(23.5, locale)
    i18n.format_percent(0.235, locale)
    format_date(date(2026, 11, 1), "LLLL y", locale=i18n.resolve_locale(locale))
    format_date(date(2026, 11, 1), "medium", locale=i18n.resolve_locale(locale))
    format_datetime(datetime(2026, 11, 1, 12, tzinfo=UTC), "medium", tzinfo=UTC,
                    locale=i18n.resolve_locale(locale))
gc.collect()
print(len(gc.get_objects()) - before)
"""


def objects_kept_by_formatting(*, warm: bool) -> int:
    """In a fresh interpreter: objects that formatting in every language leaves alive."""
    code = _FORMAT_EVERYTHING.format(warm="warm_up()" if warm else "")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, check=True, timeout=60)
    return int(done.stdout)


def test_after_the_warm_up_formatting_in_every_language_loads_nothing():
    assert objects_kept_by_formatting(warm=True) < 50


def test_without_it_the_first_formatting_loads_thousands_of_objects():
    assert objects_kept_by_formatting(warm=False) > 1_000  # what the warm-up moves to start-up
