"""The bot process's interpreter tuning (interpreter.py): what start-up loads before it
freezes its objects out of the garbage collector's scans."""

from __future__ import annotations

import gc
import sys

import interpreter
from i18n.core import SUPPORTED_LOCALES, _catalog


def test_every_languages_catalogue_is_read_before_start_up_is_frozen(monkeypatch):
    """Read at its first use, a catalogue held the event loop for tens of ms on the first
    page or answer in that language, and joined what every full collection scans."""
    _catalog.cache_clear()
    read_at_freeze: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: read_at_freeze.append(_catalog.cache_info().currsize))
    monkeypatch.setattr(gc, "set_threshold", lambda *_: None)  # this process stays as it is
    monkeypatch.setattr(sys, "setswitchinterval", lambda _: None)
    interpreter.tune()
    assert read_at_freeze == [len(SUPPORTED_LOCALES)]
