"""Timings for card rendering: ``python -m cardart.bench``.

cold  = nothing cached (the shared palette built, tiles drawn, hand composed, PNG encoded);
tiles = tiles cached, this hand not (the usual case: a new hand in a running bot, after
        `warm_up`);
warm  = this exact hand again (served from the cache).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from cardart import layout, tiles
from cardart.codes import VARIANT_CODES


def _clear() -> None:
    for fn in (tiles.face_tile, tiles.card_back, layout._dimmed, layout._cell,
               layout._empty_hand, layout._felt_index, layout._table_base,
               layout._discard_ghosts):
        fn.cache_clear()
    layout.HAND_PNGS.clear()
    layout.TABLE_PNGS.clear()
    layout._palette = None


def _ms(fn: Callable[..., object], repeat: int) -> list[float]:
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

    def hand_args(i: int) -> tuple[list[str], set[str], str, tiles.CornerLetters]:
        hand = hands[i % len(hands)]
        return hand, set(hand[::2]), "party", tiles.ENGLISH

    cold = []
    for i in range(repeat):
        _clear()
        cold += _ms(lambda i=i: layout.render_hand(*hand_args(i)), 1)
    for code in codes:  # all tiles and faded tiles warm, no hand cached
        layout.render_hand([code], [], "party")
        layout.render_hand([code], [code], "party")
    tiles_warm = []
    sizes = []
    for i in range(repeat):
        layout.HAND_PNGS.clear()
        tiles_warm += _ms(lambda i=i: layout.render_hand(*hand_args(i)), 1)
        sizes.append(len(layout.render_hand(*hand_args(i))))
    big = len(layout.render_hand(codes + codes[:6], codes[::3], "party"))  # 20 cards, 3 rows
    layout.render_hand(*hand_args(0))  # prime: the next calls are cache hits
    warm = _ms(lambda: layout.render_hand(*hand_args(0)), repeat)

    table_cold = []
    for i in range(repeat):
        _clear()
        table_cold += _ms(lambda i=i: layout.render_table("4", 40 - i, i + 1, "party"), 1)
    layout.render_table("5", 30, 5, "party")  # the piles' look cached, counts new
    table_tiles = []
    for i in range(repeat):
        table_tiles += _ms(lambda i=i: layout.render_table("5", 36 - i % 6, 5 + i, "party"), 1)
    table_looks = []  # a new top card / pile thickness: the table's base is drawn too
    for i in range(repeat):
        layout._table_base.cache_clear()
        table_looks += _ms(lambda i=i: layout.render_table(codes[i % len(codes)], 50 - i,
                                                           i + 2, "party"), 1)
    table_size = len(layout.render_table("P", 36, 9, "party"))

    def row(name: str, values: list[float]) -> None:
        print(f"{name:<34} median {statistics.median(values):7.2f} ms   "
              f"max {max(values):7.2f} ms")

    print(f"render_hand, 6-12 cards ({repeat} runs each)")
    row("  cold (nothing cached)", cold)
    row("  tiles cached, new hand", tiles_warm)
    row("  warm (same hand again)", warm)
    print(f"  PNG size: median {statistics.median(sizes) / 1000:.1f} KB, "
          f"max {max(sizes) / 1000:.1f} KB; 20 cards {big / 1000:.1f} KB")
    print("render_table")
    row("  cold (nothing cached)", table_cold)
    row("  piles' look cached, new counts", table_tiles)
    row("  tiles cached, new top card/pile", table_looks)
    print(f"  PNG size: {table_size / 1000:.1f} KB")


if __name__ == "__main__":
    main()
