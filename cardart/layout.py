"""A hand and a table composed from cached card tiles, encoded as PNG bytes (also cached)."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from cardart import shapes
from cardart.codes import VARIANT_CODES, check_code
from cardart.tiles import INK, PAPER, card_back, card_face, card_size, face_tile

FELT = "#1f5135"
FELT_DARK = "#173f29"
HIGHLIGHT = "#ffffff"

CARD_W = 150
CARD_H = card_size(CARD_W)[1]
GAP = 14
MARGIN = 22
LIFT = 30          # playable cards sit this much higher than the others
BADGE_R = 24       # the check-mark badge under a playable card
PER_ROW = 8        # wrap long hands so cards stay big on a phone
ROW_H = LIFT + CARD_H + BADGE_R + 10

TOP_W = 210        # the top card on the table image
PILE_W = 150


def _png(img: Image.Image) -> bytes:
    # A 256-colour palette (fast octree, no dithering) looks the same on flat card art, makes
    # the file ~3x smaller (a faster upload) and encodes far faster than 24-bit PNG.
    paletted = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    paletted.save(buf, "PNG", compress_level=3)
    return buf.getvalue()


# ---- hand ------------------------------------------------------------------------------------

def hand_size(count: int) -> tuple[int, int]:
    cols = max(1, min(count, PER_ROW))
    rows = max(1, math.ceil(count / PER_ROW))
    return MARGIN * 2 + cols * CARD_W + (cols - 1) * GAP, MARGIN * 2 + rows * ROW_H - 10


@lru_cache(maxsize=64)
def _dimmed(face: tuple[str, ...]) -> Image.Image:
    """An unplayable card: washed out towards the felt (the position and the missing tick say
    it too, so this is not the only cue)."""
    tile = face_tile(face, CARD_W)
    veil = Image.new("RGBA", tile.size, (40, 60, 50, 0))
    veil.putalpha(tile.getchannel("A").point(lambda a: a * 55 // 100))
    return Image.alpha_composite(tile, veil)


def _shadow(draw: ImageDraw.ImageDraw, x: int, y: int, w: int = CARD_W, h: int = CARD_H) -> None:
    draw.rounded_rectangle((x + 4, y + 6, x + w + 4, y + h + 6), radius=14, fill=FELT_DARK)


def _tick_badge(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    r = BADGE_R
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=HIGHLIGHT, outline=INK, width=3)
    shapes.check_mark(draw, (cx, cy), r * 1.25, INK)


@lru_cache(maxsize=512)
def _hand_png(
    faces: tuple[tuple[str, ...], ...], playable: tuple[bool, ...], highlight: bool
) -> bytes:
    img = Image.new("RGB", hand_size(len(faces)), FELT)
    draw = ImageDraw.Draw(img)
    if not faces:
        x, y = MARGIN, MARGIN + LIFT
        draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=14, outline=FELT_DARK,
                               width=4)
        return _png(img)
    for i, (face, can_play) in enumerate(zip(faces, playable, strict=True)):
        row, col = divmod(i, PER_ROW)
        x = MARGIN + col * (CARD_W + GAP)
        top = MARGIN + row * ROW_H
        if not highlight:
            tile = face_tile(face, CARD_W)
            _shadow(draw, x, top + LIFT // 2)
            img.paste(tile, (x, top + LIFT // 2), tile)
        elif can_play:
            tile = face_tile(face, CARD_W)
            pad = 5
            _shadow(draw, x, top + 8)
            draw.rounded_rectangle((x - pad, top - pad, x + CARD_W + pad, top + CARD_H + pad),
                                   radius=18, fill=HIGHLIGHT)
            img.paste(tile, (x, top), tile)
            _tick_badge(draw, x + CARD_W / 2, top + CARD_H + pad)
        else:
            tile = _dimmed(face)
            _shadow(draw, x, top + LIFT)
            img.paste(tile, (x, top + LIFT), tile)
    return _png(img)


def render_hand(
    cards: Iterable[str],
    playable: Iterable[str],
    variant: str,
    locale: str = "en",
    *,
    highlight: bool = True,
) -> bytes:
    """PNG of a hand, in the order given. Playable cards are raised, framed and ticked; the
    others sit lower and faded. ``highlight=False`` draws every card plainly (not your turn).

    Same arguments → the same bytes, rendered once. Unknown codes or variant → ValueError.
    """
    hand = tuple(cards)
    can_play = frozenset(playable)
    for code in can_play:
        check_code(code, variant)
    # Keyed by what is drawn, so e.g. the same numbers in two variants share one image.
    faces = tuple(card_face(code, variant, locale) for code in hand)
    return _hand_png(faces, tuple(code in can_play for code in hand), bool(highlight))


# ---- table -----------------------------------------------------------------------------------

TABLE_W = MARGIN * 3 + PILE_W + 40 + TOP_W + 60
TABLE_H = MARGIN * 2 + card_size(TOP_W)[1] + 70


def _count_pill(draw: ImageDraw.ImageDraw, cx: float, cy: float, count: int, face_up: bool):
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


@lru_cache(maxsize=256)
def _table_png(top: tuple[str, ...], draw_pile: int, discard: int) -> bytes:
    img = Image.new("RGB", (TABLE_W, TABLE_H), FELT)
    draw = ImageDraw.Draw(img)
    pile_h = card_size(PILE_W)[1]
    top_w, top_h = card_size(TOP_W)

    # Draw pile: a stack as thick as the pile (up to 6 layers), or an empty outline.
    px = MARGIN + 10
    py = MARGIN + (top_h - pile_h) // 2
    pill_y = MARGIN + top_h + 38  # both counts on one line under the piles
    if draw_pile == 0:
        draw.rounded_rectangle((px, py, px + PILE_W, py + pile_h), radius=14, outline=FELT_DARK,
                               width=5)
        for k in range(0, PILE_W + pile_h, 24):  # hatched: "nothing here" without words
            draw.line([(px + max(0, k - pile_h), py + min(pile_h, k)),
                       (px + min(PILE_W, k), py + max(0, k - PILE_W))], fill=FELT_DARK, width=3)
    else:
        back = card_back(PILE_W)
        layers = min(6, 1 + (draw_pile - 1) // 6)
        for layer in range(layers):
            off = (layers - 1 - layer) * 4
            img.paste(back, (px + off, py - off), back)
    _count_pill(draw, px + PILE_W / 2, pill_y, draw_pile, face_up=False)

    # Discard pile: earlier cards fanned beneath, the top card large.
    tx = px + PILE_W + 60
    ty = MARGIN
    ghosts = min(max(discard - 1, 0), 4)
    if ghosts:
        fan = _discard_ghosts(ghosts)
        img.paste(fan, (tx - 40, ty - 40), fan)
    tile = face_tile(top, TOP_W)
    _shadow(draw, tx, ty, top_w, top_h)
    img.paste(tile, (tx, ty), tile)
    _count_pill(draw, tx + top_w / 2, pill_y, discard, face_up=True)
    return _png(img)


def render_table(
    top_card: str,
    draw_pile_size: int,
    discard_size: int,
    variant: str,
    locale: str = "en",
) -> bytes:
    """PNG of the table: the draw pile (a stack with its count) and the discard pile with the
    top card large and the pile's count. Same arguments → the same bytes, rendered once."""
    face = card_face(top_card, variant, locale)
    if draw_pile_size < 0 or discard_size < 1:
        raise ValueError("draw pile size must be >= 0 and discard size >= 1 (the top card)")
    return _table_png(face, int(draw_pile_size), int(discard_size))


def warm_up(locales: Iterable[str] = ("en", "cs", "es")) -> None:
    """Draw every tile once (about a quarter of a second), e.g. in the bot's setup_hook, so no
    player ever waits for a cold tile."""
    for variant, codes in VARIANT_CODES.items():
        for locale in locales:
            for code in codes:
                face = card_face(code, variant, locale)
                face_tile(face, CARD_W)
                face_tile(face, TOP_W)
                _dimmed(face)
    card_back(PILE_W)
    for layers in range(1, 5):
        _discard_ghosts(layers)
