"""One card face as a square emoji picture, for Discord's application emojis.

Discord shows emojis in a square (uploads up to 128×128 look sharp); a card is taller than
wide, so the face is drawn 128 pixels high and centred on a transparent square. Emojis are
the same in every language, so faces with a letter take the English one (the name beside
the emoji is in the reader's language).
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from cardart.tiles import ASPECT, face_tile

SIDE = 128  # pixels: Discord's recommended emoji size


@lru_cache(maxsize=32)
def emoji_png(face: tuple[str, ...]) -> bytes:
    """`face` is `tiles.card_face(code, variant)`; PNG bytes of a SIDE×SIDE picture."""
    tile = face_tile(face, round(SIDE / ASPECT))
    square = Image.new("RGBA", (SIDE, SIDE), (0, 0, 0, 0))
    square.alpha_composite(tile, ((SIDE - tile.width) // 2, (SIDE - tile.height) // 2))
    out = io.BytesIO()
    square.save(out, "PNG", optimize=True)
    return out.getvalue()
