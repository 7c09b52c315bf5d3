"""Cards drawn with Pillow: a hand with its playable cards marked, and the table.

    >>> from cardart import render_hand, render_table
    >>> png = render_hand(["1", "3", "4", "L"], {"3", "4"}, "classic", "cs")
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True

Cards are the engine's codes: "1".."6", "1+".."6+" (Party plus cards), "L" (llama; a mosquito
in Lato z Komarami), "P" (Party's pink llama). Output is PNG bytes, cached per arguments.
"""

from cardart import tiles
from cardart.codes import VARIANT_CODES
from cardart.emoji import emoji_png
from cardart.layout import cached_hand, cached_table, render_hand, render_table, warm_up
from cardart.tiles import card_tile

__all__ = [
    "VARIANT_CODES", "cached_hand", "cached_table", "card_tile", "emoji_png", "render_hand",
    "render_table", "tiles", "warm_up",
]
