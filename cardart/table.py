"""The table picture's pieces in RGB: the draw pile as a stack as thick as the pile, the
discard pile fanned under the large top card, and the two count pills. cardart/layout.py maps
them into the shared palette and composes the picture."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from cardart import shapes
from cardart.felt import FELT, FELT_DARK, MARGIN, PILE_W, TOP_W, shadow
from cardart.tiles import INK, PAPER, card_back, card_size, face_tile

TABLE_W = MARGIN * 3 + PILE_W + 40 + TOP_W + 60
TABLE_H = MARGIN * 2 + card_size(TOP_W)[1] + 70
_PILE_X = MARGIN + 10
_TOP_X = _PILE_X + PILE_W + 60
_PILL_Y = MARGIN + card_size(TOP_W)[1] + 38   # both counts on one line under the piles
_PILL_STRIP = (_PILL_Y - 26, _PILL_Y + 27)     # the rows the count pills are drawn in


def _count_pill(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, count: int, face_up: bool
) -> None:
    """A number with a tiny card icon (back or face) so the pill needs no words."""
    text = str(count)
    size = 34
    text_w = shapes.font(size).getlength(text)
    icon_w, icon_h = 20, 28
    width = icon_w + 12 + text_w + 36
    x0, y0 = cx - width / 2, cy - 24
    draw.rounded_rectangle((x0, y0, x0 + width, cy + 24), radius=24, fill=PAPER, outline=INK,
                           width=3)
    ix, iy = x0 + 18, cy - icon_h / 2
    if face_up:
        draw.rounded_rectangle((ix, iy, ix + icon_w, iy + icon_h), radius=4, fill="white",
                               outline=INK, width=2)
        draw.line([(ix + 5, iy + 9), (ix + icon_w - 5, iy + 9)], fill=INK, width=2)
        draw.line([(ix + 5, iy + 16), (ix + icon_w - 7, iy + 16)], fill=INK, width=2)
    else:
        draw.rounded_rectangle((ix, iy, ix + icon_w, iy + icon_h), radius=4, fill="#2b3a67",
                               outline=INK, width=2)
    draw.text((ix + icon_w + 12, cy), text, font=shapes.font(size), fill=INK, anchor="lm",
              stroke_width=1, stroke_fill=INK)


def _draw_pills(draw: ImageDraw.ImageDraw, y_offset: int, draw_pile: int, discard: int) -> None:
    cy = _PILL_Y - y_offset
    _count_pill(draw, _PILE_X + PILE_W / 2, cy, draw_pile, face_up=False)
    _count_pill(draw, _TOP_X + card_size(TOP_W)[0] / 2, cy, discard, face_up=True)


@lru_cache(maxsize=8)
def _discard_ghosts(layers: int) -> Image.Image:
    """Cards fanned under the top card, one per earlier discard up to a few."""
    w, h = card_size(TOP_W)
    size = (w + 80, h + 80)
    out = Image.new("RGBA", size, (0, 0, 0, 0))
    for angle in (-9, 7, -4, 12)[:layers]:
        card = Image.new("RGBA", size, (0, 0, 0, 0))
        ImageDraw.Draw(card).rounded_rectangle(
            (40, 40, 40 + w, 40 + h), radius=18, fill=(236, 230, 216), outline=INK, width=3
        )
        card = card.rotate(angle, resample=Image.Resampling.BICUBIC, center=(size[0] / 2,
                                                                              size[1] / 2))
        out = Image.alpha_composite(out, card)
    return out


def _layers(draw_pile: int) -> int:
    """Draw-pile thickness: 0 = empty (an outline), else 1..6 stacked backs."""
    return 0 if draw_pile == 0 else min(6, 1 + (draw_pile - 1) // 6)


def _ghosts(discard: int) -> int:
    return min(max(discard - 1, 0), 4)


def _table_base_rgb(top: tuple[str, ...], layers: int, ghosts: int) -> Image.Image:
    """The table without its two count pills."""
    img = Image.new("RGB", (TABLE_W, TABLE_H), FELT)
    draw = ImageDraw.Draw(img)
    pile_h = card_size(PILE_W)[1]
    top_w, top_h = card_size(TOP_W)

    # Draw pile: a stack as thick as the pile (up to 6 layers), or an empty outline.
    px = _PILE_X
    py = MARGIN + (top_h - pile_h) // 2
    if layers == 0:
        draw.rounded_rectangle((px, py, px + PILE_W, py + pile_h), radius=14, outline=FELT_DARK,
                               width=5)
        for k in range(0, PILE_W + pile_h, 24):  # hatched: "nothing here" without words
            draw.line([(px + max(0, k - pile_h), py + min(pile_h, k)),
                       (px + min(PILE_W, k), py + max(0, k - PILE_W))], fill=FELT_DARK, width=3)
    else:
        back = card_back(PILE_W)
        for layer in range(layers):
            off = (layers - 1 - layer) * 4
            img.paste(back, (px + off, py - off), back)

    # Discard pile: earlier cards fanned beneath, the top card large.
    tx, ty = _TOP_X, MARGIN
    if ghosts:
        fan = _discard_ghosts(ghosts)
        img.paste(fan, (tx - 40, ty - 40), fan)
    tile = face_tile(top, TOP_W)
    shadow(draw, tx, ty, top_w, top_h)
    img.paste(tile, (tx, ty), tile)
    return img
