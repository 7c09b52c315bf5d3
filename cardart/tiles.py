"""One card as an image: value AND shape on every card, never colour alone.

- number cards: a big numeral plus a die face with that many pips;
- plus cards (Party): the same, with a round "+" badge and a "+" after the corner index;
- llama: a llama silhouette and the letter L in the corners;
- pink llama (Party): a striped background, a star badge with 20, the llama silhouette;
- mosquito (the llama of Lato z Komarami): a mosquito drawing.

Tiles are drawn at twice the size and shrunk once (smooth edges), then cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from cardart import shapes
from cardart.codes import PINK_LLAMA, check_code, value_of

ASPECT = 1.47  # height / width, close to a real card
SUPERSAMPLE = 2

INK = "#1c1c1c"
PAPER = "#fbf7ee"
# Okabe-Ito colours (distinguishable with the common colour-vision deficiencies), and each
# card also says its value twice, so colour is only a bonus.
VALUE_COLOURS = {
    1: ("#d55e00", "#8a3d00"),
    2: ("#e69f00", "#8a5f00"),
    3: ("#f0e442", "#6e6800"),
    4: ("#009e73", "#00634a"),
    5: ("#56b4e9", "#1d6c99"),
    6: ("#0072b2", "#004a73"),
}
LLAMA_COLOURS = ("#a0785a", "#5a3e2b")
PINK_COLOURS = ("#cc79a7", "#7a2f5b")
MOSQUITO_COLOURS = ("#7d8c5a", "#34401f")


def card_size(width: int) -> tuple[int, int]:
    return width, round(width * ASPECT)


@dataclass(frozen=True)
class CornerLetters:
    """The letter in the corner of each face that has no number, in the reader's language.
    The default is English; the bot asks i18n for the others (`i18n.corner_letters`)."""

    llama: str = "L"
    pink_llama: str = "P"
    mosquito: str = "M"  # the llama of Lato z Komarami


ENGLISH = CornerLetters()


def card_face(code: str, variant: str, letters: CornerLetters = ENGLISH) -> tuple[str, ...]:
    """What the card looks like, as a hashable key: number cards look the same in every
    variant and language, so they share one cached tile, and a llama-like card is keyed by
    its letter only, so languages with the same letter share it too."""
    check_code(code, variant)
    if value_of(code) is not None:
        return ("number", code)
    if code == PINK_LLAMA:
        return ("pink_llama", letters.pink_llama)
    if variant == "komarami":
        return ("mosquito", letters.mosquito)
    return ("llama", letters.llama)


def card_tile(
    code: str, variant: str, letters: CornerLetters = ENGLISH, width: int = 150
) -> Image.Image:
    """The card as an RGBA image ``width`` pixels wide. Cached: do not modify the result."""
    return face_tile(card_face(code, variant, letters), width)


@lru_cache(maxsize=128)
def face_tile(face: tuple[str, ...], width: int) -> Image.Image:
    w, h = (side * SUPERSAMPLE for side in card_size(width))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    kind, label = face
    if kind == "number":
        _number_card(draw, w, h, int(label[0]), plus=label.endswith("+"))
    elif kind == "pink_llama":
        _pink_llama_card(draw, w, h, label)
    elif kind == "mosquito":
        _mosquito_card(draw, w, h, label)
    else:
        _llama_card(draw, w, h, label)
    # Box-average the 2x drawing down: smooth edges; the outline is dark, so the dark fringe
    # that averaging against transparent black leaves is invisible.
    return img.reduce(SUPERSAMPLE)


@lru_cache(maxsize=16)
def card_back(width: int = 150) -> Image.Image:
    """The back of a card, for the draw pile."""
    w, h = (side * SUPERSAMPLE for side in card_size(width))
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    _frame(draw, w, h, "#2b3a67", "#2b3a67")
    inset = w * 0.09
    draw.rounded_rectangle((inset, inset, w - inset, h - inset), radius=w * 0.06,
                           outline="#c9b458", width=round(w * 0.02))
    step = w * 0.14  # a diamond lattice
    y = inset + step / 2
    row = 0
    while y < h - inset - step / 4:
        x = inset + step / 2 + (step / 2 if row % 2 else 0)
        while x < w - inset - step / 4:
            r = step * 0.22
            draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill="#3d4f85")
            x += step
        y += step / 2
        row += 1
    pad = w * 0.16
    draw.rounded_rectangle((pad, h * 0.42, w - pad, h * 0.58), radius=w * 0.05, fill="#c9b458")
    shapes.text_centered(draw, (w / 2, h / 2), "LAMA", round(w * 0.17), "#2b3a67",
                         stroke=2, stroke_fill="#2b3a67")
    # Box-average the 2x drawing down: smooth edges; the outline is dark, so the dark fringe
    # that averaging against transparent black leaves is invisible.
    return img.reduce(SUPERSAMPLE)


def _frame(draw: ImageDraw.ImageDraw, w: int, h: int, band: str, ink: str) -> tuple[float, ...]:
    """Rounded card with a coloured band and a paper panel; returns the panel box."""
    radius = w * 0.09
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=band, outline=INK,
                           width=max(2, round(w * 0.012)))
    inset = w * 0.06
    panel = (inset, inset, w - inset, h - inset)
    draw.rounded_rectangle(panel, radius=radius * 0.7, fill=PAPER)
    return panel


def _corner_indices(
    draw: ImageDraw.ImageDraw, w: int, h: int, label: str, band: str, ink: str
) -> None:
    """A small index top-left, like real cards (the only label left visible if cards overlap)."""
    size = round(w * (0.15 if len(label) > 1 else 0.18))
    r = w * 0.125
    cx = cy = w * 0.17
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=band, outline=ink,
                 width=max(2, round(w * 0.012)))
    shapes.text_centered(draw, (cx, cy + w * 0.005), label, size, "white", stroke=4,
                         stroke_fill=ink)


def _number_card(draw: ImageDraw.ImageDraw, w: int, h: int, value: int, plus: bool) -> None:
    band, ink = VALUE_COLOURS[value]
    _frame(draw, w, h, band, ink)
    # The numeral: as big as the card allows, heavy stroke so it reads at thumbnail size.
    shapes.text_centered(draw, (w / 2, h * 0.40), str(value), round(w * 0.74), ink,
                         stroke=round(w * 0.025), stroke_fill=ink)
    die = w * 0.38
    box = (w / 2 - die / 2, h * 0.68, w / 2 + die / 2, h * 0.68 + die)
    draw.rounded_rectangle(box, radius=die * 0.18, fill="white", outline=ink,
                           width=max(2, round(w * 0.015)))
    shapes.pips(draw, box, value, ink)
    _corner_indices(draw, w, h, f"{value}+" if plus else str(value), band, ink)
    if plus:
        r = w * 0.16
        cx, cy = w - w * 0.2, w * 0.2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK, outline="white",
                     width=round(w * 0.02))
        shapes.plus_sign(draw, (cx, cy), r * 1.3, "white")


def _llama_card(draw: ImageDraw.ImageDraw, w: int, h: int, letter: str) -> None:
    band, ink = LLAMA_COLOURS
    _frame(draw, w, h, band, ink)
    shapes.llama(draw, (w * 0.16, h * 0.22, w * 0.86, h * 0.80), ink)
    _corner_indices(draw, w, h, letter, band, ink)


def _pink_llama_card(draw: ImageDraw.ImageDraw, w: int, h: int, letter: str) -> None:
    band, ink = PINK_COLOURS
    x0, y0, x1, y1 = _frame(draw, w, h, band, ink)
    # Diagonal stripes: a pattern no other card has, visible without colour vision.
    step = w * 0.09
    x = x0 - (y1 - y0)
    while x < x1:
        draw.line([(x, y1), (x + (y1 - y0), y0)], fill="#f3d3e4", width=round(step * 0.45))
        x += step
    draw.rounded_rectangle((x0, y0, x1, y1), radius=w * 0.063, outline=band,
                           width=round(w * 0.01))
    shapes.llama(draw, (w * 0.16, h * 0.26, w * 0.86, h * 0.84), ink)
    cx, cy = w - w * 0.24, w * 0.26
    shapes.star(draw, (cx, cy), w * 0.2, fill="#ffd23f", outline=INK, width=round(w * 0.012))
    shapes.text_centered(draw, (cx, cy + w * 0.02), "20", round(w * 0.12), INK)
    _corner_indices(draw, w, h, letter, band, ink)


def _mosquito_card(draw: ImageDraw.ImageDraw, w: int, h: int, letter: str) -> None:
    band, ink = MOSQUITO_COLOURS
    _frame(draw, w, h, band, ink)
    shapes.mosquito(draw, (w * 0.14, h * 0.18, w * 0.86, h * 0.84), ink, "#dfe8f0")
    _corner_indices(draw, w, h, letter, band, ink)
