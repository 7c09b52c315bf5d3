"""Numbers are written once per language and kept (i18n/formatting.py): Babel's formatting took
half of a player's web page's time on the event loop (issue 33). What is kept is what Babel
writes, but that zero never has a minus sign."""

from __future__ import annotations

import gc

import pytest
from hypothesis import given
from hypothesis import strategies as st

import i18n
from i18n import formatting

LOCALES = i18n.SUPPORTED_LOCALES


@pytest.fixture(autouse=True)
def nothing_written_yet():
    formatting._written.clear()
    yield
    formatting._written.clear()


def babel_decimal(value: float, locale: str, digits: int) -> str:
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return formatting._babel_format_decimal(
        round(value, digits) or 0, format=pattern, locale=formatting._babel_locale(locale))


def babel_percent(fraction: float, locale: str) -> str:
    return formatting._babel_format_percent(
        round(fraction, 3) or 0, locale=formatting._babel_locale(locale),
        decimal_quantization=False)


@given(st.sampled_from(LOCALES), st.integers(-10**9, 10**9) | st.floats(-1e7, 1e7),
       st.sampled_from([0, 1]))
def test_a_number_is_written_as_babel_writes_it_the_first_time_and_after(locale, value, digits):
    first = i18n.format_decimal(value, locale, digits)
    assert first == babel_decimal(value, locale, digits)
    assert i18n.format_decimal(value, locale, digits) == first


@given(st.sampled_from(LOCALES), st.floats(0, 1))
def test_a_share_is_written_as_babel_writes_it_the_first_time_and_after(locale, fraction):
    first = i18n.format_percent(fraction, locale)
    assert first == babel_percent(fraction, locale)
    assert i18n.format_percent(fraction, locale) == first


def test_a_number_written_again_asks_babel_nothing(monkeypatch):
    asked = []
    real = formatting._babel_format_decimal
    monkeypatch.setattr(formatting, "_babel_format_decimal",
                        lambda *args, **kwargs: asked.append(args) or real(*args, **kwargs))
    written = [i18n.format_decimal(1234, "cs", digits=0) for _ in range(3)]
    assert written == ["1\xa0234"] * 3 and len(asked) == 1


def test_each_language_and_precision_is_kept_apart():
    assert [i18n.format_decimal(1234.5, locale) for locale in ("en", "cs", "es")] == [
        "1,234.5", "1\xa0234,5", "1.234,5"]
    assert i18n.format_decimal(1234.5, "en", digits=0) == "1,234"
    assert i18n.format_percent(0.5, "en") == "50%" and i18n.format_decimal(0.5, "en") == "0.5"


def test_zero_is_never_written_with_a_minus_sign():
    """-0.0 equals 0: written first, it would be what every zero is written as after it."""
    assert [i18n.format_decimal(v, "en") for v in (-0.0, 0, -0.04)] == ["0.0"] * 3
    assert i18n.format_percent(-0.0, "en") == i18n.format_percent(0, "en") == "0%"


def test_what_is_kept_starts_over_once_full(monkeypatch):
    monkeypatch.setattr(formatting, "WRITTEN_KEPT", 3)
    for n in range(10):
        i18n.format_decimal(n, "en", digits=0)
        assert len(formatting._written) <= 3


def test_an_int_and_an_equal_float_are_written_each_as_babel_writes_it():
    big = 2**60  # past 2**53 a float is not the int it equals to the last digit
    assert i18n.format_decimal(float(big), "en") == babel_decimal(float(big), "en", 1)
    assert i18n.format_decimal(big, "en") == babel_decimal(big, "en", 1)


def test_what_is_kept_is_nothing_for_a_full_collection_to_scan():
    for n in range(200):
        i18n.format_decimal(n * 1.37, "cs")
        i18n.format_percent(n / 200, "es")
    gc.collect()
    assert not gc.is_tracked(formatting._written)
