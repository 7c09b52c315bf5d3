"""The cloth both pictures lie on: its colours, the margin, the piles' card sizes, and the
shadow a card casts on it. Shared by the hand (cardart/layout.py) and the table
(cardart/table.py)."""

from __future__ import annotations

from PIL import ImageDraw

FELT = "#1f5135"
FELT_DARK = "#173f29"
HIGHLIGHT = "#ffffff"
MARGIN = 22
TOP_W = 210  # the top card on the table image
PILE_W = 150  # the draw pile's cards


def shadow(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
    """The shadow of a w × h card whose top-left corner is at (x, y)."""
    draw.rounded_rectangle((x + 4, y + 6, x + w + 4, y + h + 6), radius=14, fill=FELT_DARK)
