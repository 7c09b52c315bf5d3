"""A hand and a table composed from cached pieces, encoded as PNG bytes (also cached).

Why it is fast: every piece (a card as it sits in a hand, in each of its three looks; the
table's piles) is drawn once in RGB and mapped once to ONE shared 256-colour palette. A picture
is then pasted together from those pieces in palette mode ("P": one byte a pixel, no
per-picture quantise) and PNG-encoded at zlib level 1. Pieces never overlap (each card owns a
cell of the hand's grid), so pasting them gives the same picture as drawing it in one go.

Safe to call from several threads at once (the bot renders in `asyncio.to_thread`): the caches
are locked, cached images are never modified after they are made.
"""

from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from cardart import shapes
from cardart.codes import VARIANT_CODES, check_code
from cardart.felt import FELT, FELT_DARK, HIGHLIGHT, MARGIN, PILE_W, TOP_W, shadow
from cardart.table import (
    _PILL_STRIP,
    TABLE_W,
    _discard_ghosts,
    _draw_pills,
    _ghosts,
    _layers,
    _table_base_rgb,
)
from cardart.tiles import (
    ENGLISH,
    INK,
    CornerLetters,
    card_back,
    card_face,
    card_size,
    face_tile,
)

CARD_W = 150
CARD_H = card_size(CARD_W)[1]
GAP = 14
LIFT = 30          # playable cards sit this much higher than the others
BADGE_R = 24       # the check-mark badge under a playable card
PER_ROW = 8        # wrap long hands so cards stay big on a phone
ROW_H = LIFT + CARD_H + BADGE_R + 10

# zlib level: 1 is the fastest and only ~10 % bigger than 3 on flat palette art; pictures
# above BIG_PIXELS (a hand of 17+ cards, rare) take 3 to stay under ~60 KB.
PNG_LEVEL = 1
BIG_LEVEL = 3
BIG_PIXELS = 1_000_000


class PngCache:
    """A bounded LRU of PNG bytes, shared between threads. `get` is a cheap look-up, so a
    caller can skip a thread hop when the picture is already there."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.hits = self.misses = 0
        self._data: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> bytes | None:
        with self._lock:
            value = self._data.get(key)
            if value is None:
                self.misses += 1
            else:
                self.hits += 1
                self._data.move_to_end(key)
            return value

    def put(self, key: Hashable, value: bytes) -> bytes:
        """Store; returns the cached bytes (the first one if two threads drew the same)."""
        with self._lock:
            existing = self._data.get(key)
            if existing is not None:
                return existing
            self._data[key] = value
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)
            return value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._data)


HAND_PNGS = PngCache(512)
TABLE_PNGS = PngCache(256)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    level = BIG_LEVEL if img.width * img.height > BIG_PIXELS else PNG_LEVEL
    img.save(buf, "PNG", compress_level=level, optimize=False)
    return buf.getvalue()


# ---- the shared palette ----------------------------------------------------------------------

_palette_lock = threading.Lock()
_palette: Image.Image | None = None


def palette() -> Image.Image:
    """A 1x1 "P" image carrying the palette every picture uses (built once, ~0.1 s, from every
    card in every look and two sample tables; deterministic, so the output is too)."""
    global _palette
    if _palette is None:
        with _palette_lock:
            if _palette is None:
                _palette = _build_palette()
    return _palette


def _build_palette() -> Image.Image:
    pieces = [_cell_rgb(face, state) for face in _palette_faces() for state in STATES]
    for top, pile, discard in ((card_face("P", "party"), 36, 5), (card_face("4", "classic"), 0, 1)):
        table = _table_base_rgb(top, _layers(pile), _ghosts(discard))
        _draw_pills(ImageDraw.Draw(table), 0, pile, discard)
        pieces.append(table)
    sheet = Image.new("RGB", (sum(p.width for p in pieces), max(p.height for p in pieces)), FELT)
    x = 0
    for piece in pieces:
        sheet.paste(piece, (x, 0))
        x += piece.width
    # Fast octree, no dithering: flat card art keeps its look (as per-picture quantising did).
    quantized = sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = Image.new("P", (1, 1))
    out.putpalette(_colours(quantized))
    return out


def _colours(img: Image.Image) -> list[int]:
    """A palette image's palette, as Pillow hands it over."""
    colours = img.getpalette()
    if colours is None:
        raise ValueError("not a palette image")
    return colours


def _palette_faces() -> list[tuple[str, ...]]:
    faces = {card_face(code, v) for v, codes in VARIANT_CODES.items() for code in codes}
    return sorted(faces)


def _to_palette(img: Image.Image) -> Image.Image:
    """RGB → the shared palette (nearest colour, no dithering)."""
    return img.quantize(palette=palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=1)
def _felt_index() -> int:
    index = _to_palette(Image.new("RGB", (1, 1), FELT)).getpixel((0, 0))
    if not isinstance(index, int):
        raise TypeError(f"a palette pixel is an index, got {index!r}")
    return index


def _canvas(size: tuple[int, int]) -> Image.Image:
    img = Image.new("P", size, _felt_index())
    img.putpalette(_colours(palette()))
    return img


# ---- hand ------------------------------------------------------------------------------------

PLAIN, PLAYABLE, DIMMED = STATES = ("plain", "playable", "dimmed")
CELL_PAD = GAP // 2          # a card's cell: the card and the felt around it, up to the next
CELL_W = CARD_W + GAP        # cell; nothing a card draws (frame, shadow, tick) leaves it
CELL_H = ROW_H


def hand_size(count: int) -> tuple[int, int]:
    cols = max(1, min(count, PER_ROW))
    rows = max(1, math.ceil(count / PER_ROW))
    return MARGIN * 2 + cols * CARD_W + (cols - 1) * GAP, MARGIN * 2 + rows * ROW_H - 10


def card_origin(index: int) -> tuple[int, int]:
    """Top-left of the `index`-th card's slot (a raised card's top edge) in a hand picture."""
    row, col = divmod(index, PER_ROW)
    return MARGIN + col * (CARD_W + GAP), MARGIN + row * ROW_H


@lru_cache(maxsize=64)
def _dimmed(face: tuple[str, ...]) -> Image.Image:
    """An unplayable card: washed out towards the felt (the position and the missing tick say
    it too, so this is not the only cue)."""
    tile = face_tile(face, CARD_W)
    veil = Image.new("RGBA", tile.size, (40, 60, 50, 0))
    veil.putalpha(tile.getchannel("A").point(lambda a: a * 55 // 100))
    return Image.alpha_composite(tile, veil)


def _tick_badge(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    r = BADGE_R
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=HIGHLIGHT, outline=INK, width=3)
    shapes.check_mark(draw, (cx, cy), r * 1.25, INK)


def _cell_rgb(face: tuple[str, ...], state: str) -> Image.Image:
    """One card in its cell, as it sits in a hand: plain (not your turn), playable (raised,
    framed in white, ticked) or dimmed (lower and faded)."""
    img = Image.new("RGB", (CELL_W, CELL_H), FELT)
    draw = ImageDraw.Draw(img)
    x = top = CELL_PAD
    if state == PLAIN:
        tile = face_tile(face, CARD_W)
        shadow(draw, x, top + LIFT // 2, CARD_W, CARD_H)
        img.paste(tile, (x, top + LIFT // 2), tile)
    elif state == PLAYABLE:
        tile = face_tile(face, CARD_W)
        pad = 5
        shadow(draw, x, top + 8, CARD_W, CARD_H)
        draw.rounded_rectangle((x - pad, top - pad, x + CARD_W + pad, top + CARD_H + pad),
                               radius=18, fill=HIGHLIGHT)
        img.paste(tile, (x, top), tile)
        _tick_badge(draw, x + CARD_W / 2, top + CARD_H + pad)
    else:
        tile = _dimmed(face)
        shadow(draw, x, top + LIFT, CARD_W, CARD_H)
        img.paste(tile, (x, top + LIFT), tile)
    return img


@lru_cache(maxsize=256)
def _cell(face: tuple[str, ...], state: str) -> Image.Image:
    """The cell in the shared palette. Cached: do not modify the result."""
    return _to_palette(_cell_rgb(face, state))


@lru_cache(maxsize=1)
def _empty_hand() -> Image.Image:
    img = Image.new("RGB", hand_size(0), FELT)
    x, y = MARGIN, MARGIN + LIFT
    ImageDraw.Draw(img).rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=14,
                                          outline=FELT_DARK, width=4)
    return _to_palette(img)


def compose_hand(faces: tuple[tuple[str, ...], ...], states: tuple[str, ...]) -> Image.Image:
    """The hand picture ("P" mode): each card's cell pasted at its place."""
    if not faces:
        return _empty_hand().copy()
    img = _canvas(hand_size(len(faces)))
    for i, (face, state) in enumerate(zip(faces, states, strict=True)):
        x, top = card_origin(i)
        img.paste(_cell(face, state), (x - CELL_PAD, top - CELL_PAD))
    return img


def _hand_key(
    cards: Iterable[str], playable: Iterable[str], variant: str, letters: CornerLetters,
    highlight: bool,
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    hand = tuple(cards)
    can_play = frozenset(playable)
    for code in can_play:
        check_code(code, variant)
    # Keyed by what is drawn, so e.g. the same numbers in two variants share one image.
    faces = tuple(card_face(code, variant, letters) for code in hand)
    if highlight:
        states = tuple(PLAYABLE if code in can_play else DIMMED for code in hand)
    else:
        states = (PLAIN,) * len(hand)
    return faces, states


def render_hand(
    cards: Iterable[str],
    playable: Iterable[str],
    variant: str,
    letters: CornerLetters = ENGLISH,
    *,
    highlight: bool = True,
) -> bytes:
    """PNG of a hand, in the order given. Playable cards are raised, framed and ticked; the
    others sit lower and faded. ``highlight=False`` draws every card plainly (not your turn).

    Same arguments → the same bytes, rendered once. Unknown codes or variant → ValueError.
    """
    key = _hand_key(cards, playable, variant, letters, highlight)
    png = HAND_PNGS.get(key)
    if png is None:
        png = HAND_PNGS.put(key, _png(compose_hand(*key)))
    return png


def cached_hand(
    cards: Iterable[str],
    playable: Iterable[str],
    variant: str,
    letters: CornerLetters = ENGLISH,
    *,
    highlight: bool = True,
) -> bytes | None:
    """`render_hand`'s PNG if it is already cached, else None (never draws: cheap enough for
    the event loop)."""
    return HAND_PNGS.get(_hand_key(cards, playable, variant, letters, highlight))


# ---- table (its pieces are drawn in cardart/table.py) ------------------------------------


@lru_cache(maxsize=32)
def _table_base(
    top: tuple[str, ...], layers: int, ghosts: int
) -> tuple[Image.Image, Image.Image]:
    """(the base in the shared palette, the RGB rows the pills go on). Cached: read only."""
    rgb = _table_base_rgb(top, layers, ghosts)
    return _to_palette(rgb), rgb.crop((0, _PILL_STRIP[0], TABLE_W, _PILL_STRIP[1]))


def compose_table(top: tuple[str, ...], draw_pile: int, discard: int) -> Image.Image:
    base, strip_rgb = _table_base(top, _layers(draw_pile), _ghosts(discard))
    img = base.copy()
    strip = strip_rgb.copy()  # the pills are drawn over what lies beneath (e.g. a fanned card)
    _draw_pills(ImageDraw.Draw(strip), _PILL_STRIP[0], draw_pile, discard)
    img.paste(_to_palette(strip), (0, _PILL_STRIP[0]))
    return img


def _table_key(
    top_card: str, draw_pile_size: int, discard_size: int, variant: str, letters: CornerLetters
) -> tuple[tuple[str, ...], int, int]:
    face = card_face(top_card, variant, letters)
    if draw_pile_size < 0 or discard_size < 1:
        raise ValueError("draw pile size must be >= 0 and discard size >= 1 (the top card)")
    return face, int(draw_pile_size), int(discard_size)


def render_table(
    top_card: str,
    draw_pile_size: int,
    discard_size: int,
    variant: str,
    letters: CornerLetters = ENGLISH,
) -> bytes:
    """PNG of the table: the draw pile (a stack with its count) and the discard pile with the
    top card large and the pile's count. Same arguments → the same bytes, rendered once."""
    key = _table_key(top_card, draw_pile_size, discard_size, variant, letters)
    png = TABLE_PNGS.get(key)
    if png is None:
        png = TABLE_PNGS.put(key, _png(compose_table(*key)))
    return png


def cached_table(
    top_card: str, draw_pile_size: int, discard_size: int, variant: str,
    letters: CornerLetters = ENGLISH,
) -> bytes | None:
    """`render_table`'s PNG if it is already cached, else None (never draws)."""
    return TABLE_PNGS.get(_table_key(top_card, draw_pile_size, discard_size, variant, letters))


def warm_up(letters: Iterable[CornerLetters] = (ENGLISH,)) -> None:
    """Draw every piece once (about half a second), e.g. in the bot's setup_hook (in a thread),
    so no player ever waits for a cold tile: every card of every variant with each of these
    corner letters (the bot passes those of every language it speaks)."""
    palette()
    every = tuple(letters)  # read once per variant
    for variant, codes in VARIANT_CODES.items():
        for each in every:
            for code in codes:
                face = card_face(code, variant, each)
                face_tile(face, TOP_W)
                for state in STATES:
                    _cell(face, state)
    card_back(PILE_W)
    for layers in range(1, 5):
        _discard_ghosts(layers)
