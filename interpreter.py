"""The bot process's interpreter, tuned once it is connected (bot.py; not a bot built inside
tests): its garbage collector and how often threads take turns at the GIL (issue 33)."""

from __future__ import annotations

import gc
import sys

from i18n.core import SUPPORTED_LOCALES, catalog
from i18n.formatting import warm_up

YOUNG_COLLECTION_EVERY = 20_000  # allocations (CPython's default: 700)
GIL_SWITCH_INTERVAL_S = 0.001  # CPython's default: 0.005


def tune() -> None:
    """The bot process's interpreter, tuned once connected (not a bot built inside tests)."""
    # Modules, caches, servers and restored games live as long as the process: a full
    # collection re-scanned them all (~100 ms of CPU, several times a minute under load),
    # pausing every answer meanwhile. Garbage first, so none is kept for good; the
    # languages' CLDR data and catalogues first too, or they would load (and be scanned)
    # later.
    warm_up()
    for locale in SUPPORTED_LOCALES:  # the messages too: a catalogue read at its first use
        catalog(locale)  # held the event loop for tens of ms, on the first page or answer
    gc.collect()
    gc.freeze()
    # Every object still alive at a young collection moves on, and under load an answer's
    # objects live for its commit: at 700 allocations per collection they reached the oldest
    # generation by the thousand, and a full collection of ~25,000 live objects (10-50 ms,
    # nobody answered) came every few seconds. Ten times the allocations per young
    # collection let them die young: 15 full collections in a minute of the yardstick
    # became 2. The count that starts a young collection is allocations less deallocations,
    # and 100 games' interactions in flight hold some 10,000 objects: at 7,000 their coming
    # and going alone started a young collection every half second (8-23 in 15 s of the
    # yardstick, 4-15 ms of CPU each, ~7 % of the bot's CPU), each promoting what was in
    # flight. At 20,000 it is 0-2 in 15 s, each no longer (issue 33).
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *gc.get_threshold()[1:])
    # The event loop shares the GIL with pictures drawn in threads, and with SQLite's thread
    # whenever a call there outlasts the loop's blocking wait (store/thread_calls.py). A
    # thread that wants the GIL gets it after at most this long; CPython's 5 ms let such a
    # commit wait 5 ms for each of its statements, and the loop as long behind a picture.
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
