"""Shapes drawn with Pillow primitives, in a box given in pixels.

No font glyphs beyond ASCII: the bundled font has no check mark or star, so those are polygons.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from PIL import ImageDraw, ImageFont

Box = tuple[float, float, float, float]


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    # Pillow >= 10.1 bundles a scalable font: no system fonts needed, same look everywhere.
    return ImageFont.load_default(size=size)  # type: ignore[return-value]


def text_centered(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    text: str,
    size: int,
    fill: str,
    stroke: int = 0,
    stroke_fill: str | None = None,
) -> None:
    draw.text(
        center,
        text,
        font=font(size),
        fill=fill,
        anchor="mm",
        stroke_width=stroke,
        stroke_fill=stroke_fill or fill,
    )


def pips(draw: ImageDraw.ImageDraw, box: Box, value: int, fill: str) -> None:
    """A die face: the value as dots in the familiar arrangement."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cols = (x0 + w * 0.22, x0 + w * 0.5, x0 + w * 0.78)
    rows = (y0 + h * 0.22, y0 + h * 0.5, y0 + h * 0.78)
    layout = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }[value]
    r = w * 0.1
    for cx, cy in layout:
        x, y = cols[cx], rows[cy]
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def star(
    draw: ImageDraw.ImageDraw, center: tuple[float, float], radius: float, **kw: Any
) -> None:
    cx, cy = center
    points = []
    for i in range(10):
        r = radius if i % 2 == 0 else radius * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    draw.polygon(points, **kw)


def plus_sign(
    draw: ImageDraw.ImageDraw, center: tuple[float, float], size: float, fill: str
) -> None:
    cx, cy = center
    half, arm = size / 2, size * 0.17
    draw.rectangle((cx - half, cy - arm, cx + half, cy + arm), fill=fill)
    draw.rectangle((cx - arm, cy - half, cx + arm, cy + half), fill=fill)


def check_mark(
    draw: ImageDraw.ImageDraw, center: tuple[float, float], size: float, fill: str
) -> None:
    cx, cy = center
    s = size / 2
    points = [(cx - s * 0.62, cy + s * 0.02), (cx - s * 0.18, cy + s * 0.48),
              (cx + s * 0.66, cy - s * 0.45)]
    draw.line(points, fill=fill, width=max(2, round(size * 0.2)), joint="curve")


def _map(box: Box, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = box
    return [(x0 + (x1 - x0) * px, y0 + (y1 - y0) * py) for px, py in points]


def llama(draw: ImageDraw.ImageDraw, box: Box, fill: str) -> None:
    """A llama in profile facing left: long neck, banana ears, four legs, stubby tail."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def rect(ax: float, ay: float, bx: float, by: float, radius: float = 0.0) -> None:
        draw.rounded_rectangle(
            (x0 + w * ax, y0 + h * ay, x0 + w * bx, y0 + h * by), radius=w * radius, fill=fill
        )

    def ell(ax: float, ay: float, bx: float, by: float) -> None:
        draw.ellipse((x0 + w * ax, y0 + h * ay, x0 + w * bx, y0 + h * by), fill=fill)

    ell(0.26, 0.46, 0.92, 0.76)  # body
    ell(0.84, 0.47, 0.98, 0.60)  # tail
    # neck, slightly leaning forward
    draw.polygon(_map(box, [(0.20, 0.17), (0.38, 0.17), (0.44, 0.58), (0.24, 0.58)]), fill=fill)
    ell(0.06, 0.12, 0.38, 0.30)  # head
    ell(0.02, 0.17, 0.18, 0.29)  # muzzle
    # ears
    draw.polygon(_map(box, [(0.22, 0.15), (0.25, 0.0), (0.31, 0.15)]), fill=fill)
    draw.polygon(_map(box, [(0.29, 0.15), (0.35, 0.01), (0.38, 0.17)]), fill=fill)
    for lx in (0.30, 0.42, 0.72, 0.84):  # legs
        rect(lx, 0.62, lx + 0.085, 1.0, radius=0.03)


def mosquito(draw: ImageDraw.ImageDraw, box: Box, fill: str, wing: str) -> None:
    """A mosquito from above-ish: striped body, two wings, six long legs, a needle nose."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    lw = max(2, round(w * 0.025))

    def p(px: float, py: float) -> tuple[float, float]:
        return (x0 + w * px, y0 + h * py)

    # legs first, under everything: three a side, bent at the knee
    for side in (-1, 1):
        for hip_y, knee, foot in ((0.42, (0.22, 0.30), (0.10, 0.10)),
                                  (0.47, (0.20, 0.52), (0.04, 0.62)),
                                  (0.52, (0.22, 0.72), (0.10, 0.98))):
            hip = p(0.5 + side * 0.04, hip_y)
            k = p(0.5 + side * (0.5 - knee[0]), knee[1])
            f = p(0.5 + side * (0.5 - foot[0]), foot[1])
            draw.line([hip, k, f], fill=fill, width=lw, joint="curve")
    # wings
    for side in (-1, 1):
        cx = 0.5 + side * 0.2
        draw.ellipse((*p(cx - 0.15, 0.30), *p(cx + 0.15, 0.62)), fill=wing, outline=fill,
                     width=lw)
    # body: head, thorax, long abdomen with stripes
    draw.ellipse((*p(0.42, 0.20), *p(0.58, 0.34)), fill=fill)          # head
    draw.ellipse((*p(0.40, 0.32), *p(0.60, 0.52)), fill=fill)          # thorax
    draw.ellipse((*p(0.44, 0.48), *p(0.56, 0.96)), fill=fill)          # abdomen
    for sy in (0.60, 0.70, 0.80):
        draw.line([p(0.45, sy), p(0.55, sy)], fill=wing, width=max(1, lw // 2))
    draw.line([p(0.5, 0.22), p(0.5, 0.0)], fill=fill, width=lw)        # proboscis
    for side in (-1, 1):                                                # antennae
        draw.line([p(0.5 + side * 0.03, 0.22), p(0.5 + side * 0.14, 0.06)], fill=fill,
                  width=max(1, lw // 2))
