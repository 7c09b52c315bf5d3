"""Lists and numbers the way each language writes them (CLDR data, through Babel).

    >>> format_list(["Ana", "Bob"], "cs"), format_list(["3", "4"], "es", style="or")
    ('Ana a\\xa0Bob', '3 o 4')
    >>> format_percent(0.235, "cs"), format_decimal(23.5, "cs"), format_percent(0, "en")
    ('23,5\\xa0%', '23,5', '0%')

Czech and Spanish put a no-break space before "%" and Czech one after a one-letter "a"
(so a line never ends with it); code never joins lists or formats numbers by hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime
from functools import cache
from typing import Literal

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.lists import format_list as _babel_format_list
from babel.numbers import format_decimal as _babel_format_decimal
from babel.numbers import format_percent as _babel_format_percent

from i18n.core import SUPPORTED_LOCALES, resolve_locale, translate

ListStyle = Literal["standard", "or"]


def _babel_locale(locale: str) -> Locale:
    return _parsed(resolve_locale(locale))


@cache
def _parsed(locale: str) -> Locale:
    """One of ours (three): parsed once, not at every list a hand's turn line makes."""
    return Locale.parse(locale)


def format_list(items: Iterable[str], locale: str, style: ListStyle = "standard") -> str:
    """"A, B and C" / "A, B a C" / "A, B y C"; ``style="or"``: "A, B nebo C", "A, B o C"."""
    return _babel_format_list(list(items), style=style, locale=_babel_locale(locale))


# Numbers written lately, by kind, value, locale and digits. Babel parses its pattern and
# reads the locale's symbols for every number (~7 µs): a player's web page writes some 60,
# half the page's time on the event loop (issue 33). Keys and texts are atomic: a full
# collection stops tracking the table until a new number comes. An int and a float that are
# equal are two keys (past 2**53 Babel writes them differently).
_written: dict[tuple[str, float, bool, str, int], str] = {}
WRITTEN_KEPT = 4096  # past it, the table starts over


def format_decimal(value: float, locale: str, digits: int = 1) -> str:
    """A number with exactly ``digits`` decimals: "23,5" (cs, es), "23.5" (en), "1 234,0"."""
    rounded = round(value, digits) or 0  # never "-0": -0.0 == 0, so one key for both
    key = ("decimal", rounded, isinstance(rounded, float), locale, digits)
    text = _written.get(key)
    if text is None:
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        text = _babel_format_decimal(rounded, format=pattern, locale=_babel_locale(locale))
        _keep(key, text)
    return text


def format_percent(fraction: float, locale: str) -> str:
    """A share as the locale writes percentages, to one decimal at most: "0 %", "23,5 %",
    "50 %" (cs, es), "23.5%" (en)."""
    rounded = round(fraction, 3) or 0
    key = ("percent", rounded, isinstance(rounded, float), locale, 0)
    text = _written.get(key)
    if text is None:
        text = _babel_format_percent(
            rounded, locale=_babel_locale(locale), decimal_quantization=False)
        _keep(key, text)
    return text


def _keep(key: tuple[str, float, bool, str, int], text: str) -> None:
    if len(_written) >= WRITTEN_KEPT:
        _written.clear()
    _written[key] = text


def format_duration(seconds: int, locale: str) -> str:
    """A whole number of seconds in the largest units that fit, each its own plural entry
    (`duration.hours`, `.minutes`, `.seconds`): "45 s", "2 min", "1 min 30 s", "1 h",
    "1 h 30 min"; never "3600 s"."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    parts = [translate(f"duration.{unit}", locale, count=amount)
             for unit, amount in (("hours", hours), ("minutes", minutes), ("seconds", secs))
             if amount]
    return " ".join(parts) or translate("duration.seconds", locale, count=0)


def warm_up() -> None:
    """Load every supported language's CLDR data now (lists, numbers, dates: some 9,000
    objects). Loaded at first use, it joined what every full garbage collection scans; the
    bot loads it before it freezes its start-up objects, so it is never scanned (bot.py)."""
    for locale in SUPPORTED_LOCALES:
        format_list(["1", "2", "3"], locale)
        format_list(["1", "2"], locale, style="or")
        format_decimal(1.5, locale)
        format_percent(0.5, locale)
        babel_locale = resolve_locale(locale)
        for pattern in ("LLLL y", "QQQ y", "medium"):  # a season's name, a web page's date
            format_date(date(2026, 1, 1), pattern, locale=babel_locale)
        format_datetime(datetime(2026, 1, 1, tzinfo=UTC), "medium", tzinfo=UTC,
                        locale=babel_locale)  # a web page's moment (web/words.py)
