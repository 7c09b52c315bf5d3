"""Cards drawn with Pillow: a hand with its playable cards marked, and the table.

    >>> from cardart import CornerLetters, render_hand, render_table
    >>> czech = CornerLetters(llama="L", pink_llama="R", mosquito="K")
    >>> png = render_hand(["1", "3", "4", "L"], {"3", "4"}, "classic", czech)
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True

Cards are the engine's codes: "1".."6", "1+".."6+" (Party plus cards), "L" (llama; a mosquito
in Lato z Komarami), "P" (Party's pink llama). Their corner letters are handed in as
`CornerLetters` (English by default): cardart imports nothing else of the bot's. Output is
PNG bytes, cached per what is drawn.
"""

from cardart import tiles
from cardart.codes import VARIANT_CODES
from cardart.emoji import emoji_png
from cardart.layout import cached_hand, cached_table, render_hand, render_table, warm_up
from cardart.tiles import CornerLetters, card_tile

__all__ = [
    "VARIANT_CODES", "CornerLetters", "cached_hand", "cached_table", "card_tile", "emoji_png",
    "render_hand", "render_table", "tiles", "warm_up",
]
