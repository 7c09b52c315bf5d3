"""Timings for card rendering: ``python -m cardart.bench``.

cold  = nothing cached (tiles drawn, hand composed, PNG encoded);
tiles = tiles cached, this hand not (the usual case: a new hand in a running bot);
warm  = this exact hand again (served from the cache).
"""

from __future__ import annotations

import random
import statistics
import time

from cardart import layout, tiles
from cardart.codes import VARIANT_CODES


def _clear() -> None:
    for fn in (tiles.face_tile, tiles.card_back, layout._dimmed, layout._hand_png,
               layout._table_png, layout._discard_ghosts):
        fn.cache_clear()


def _ms(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main(repeat: int = 30) -> None:
    rng = random.Random(7)
    codes = sorted(VARIANT_CODES["party"])
    hands = [rng.choices(codes, k=rng.randint(6, 12)) for _ in range(repeat)]

    def hand_args(i):
        hand = hands[i % len(hands)]
        return hand, set(hand[::2]), "party", "en"

    cold = []
    for i in range(repeat):
        _clear()
        cold += _ms(lambda i=i: layout.render_hand(*hand_args(i)), 1)
    for code in codes:  # all tiles and faded tiles warm, no hand cached
        layout.render_hand([code], [], "party")
        layout.render_hand([code], [code], "party")
    tiles_warm = []
    for i in range(repeat):
        layout._hand_png.cache_clear()
        tiles_warm += _ms(lambda i=i: layout.render_hand(*hand_args(i)), 1)
    layout.render_hand(*hand_args(0))  # prime: the next calls are cache hits
    warm = _ms(lambda: layout.render_hand(*hand_args(0)), repeat)

    table_cold = []
    for i in range(repeat):
        _clear()
        table_cold += _ms(lambda i=i: layout.render_table("4", 40 - i, i + 1, "party"), 1)
    table_tiles = []
    for i in range(repeat):
        table_tiles += _ms(lambda i=i: layout.render_table("5", 50 - i, i + 2, "party"), 1)

    def row(name, values):
        print(f"{name:<34} median {statistics.median(values):7.2f} ms   "
              f"max {max(values):7.2f} ms")

    print(f"render_hand, 6-12 cards ({repeat} runs each)")
    row("  cold (nothing cached)", cold)
    row("  tiles cached, new hand", tiles_warm)
    row("  warm (same hand again)", warm)
    print("render_table")
    row("  cold (nothing cached)", table_cold)
    row("  tiles cached, new table", table_tiles)


if __name__ == "__main__":
    main()
