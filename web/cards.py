"""Card pictures for the pages: the bot's own Pillow art (cardart), one PNG per card face.

Drawn off the event loop the first time, then served from memory; the addresses never change
their picture, so browsers may keep them for a long time.
"""

from __future__ import annotations

import asyncio
import io
from functools import cache

from aiohttp import web
from PIL import Image

import i18n
from cardart import CornerLetters, card_tile
from cardart.codes import VARIANT_CODES
from cardart.tiles import card_back

WIDTH = 120  # pixels; shown at up to 60 CSS pixels, so sharp on a phone's dense screen
CACHE = "public, max-age=604800, immutable"


def slug(code: str) -> str:
    """A card code as it goes into an address: "3+" is "3p"."""
    return code.replace("+", "p")


def code_of(slug_: str) -> str:
    return slug_[0] + "+" if slug_.endswith("p") and slug_[0].isdigit() else slug_


@cache
def card_png(code: str, variant: str, locale: str) -> bytes:
    letters = CornerLetters(**i18n.corner_letters(locale))  # cardart knows no languages
    return _png(card_tile(code, variant, letters, WIDTH))


@cache
def back_png() -> bytes:
    return _png(card_back(WIDTH))


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _image(data: bytes) -> web.Response:
    return web.Response(body=data, content_type="image/png", headers={"Cache-Control": CACHE})


async def card(request: web.Request) -> web.Response:
    variant, locale = request.match_info["variant"], request.match_info["locale"]
    code = code_of(request.match_info["card"])
    if variant not in VARIANT_CODES or code not in VARIANT_CODES[variant]:
        raise web.HTTPNotFound()
    if locale not in i18n.SUPPORTED_LOCALES:
        raise web.HTTPNotFound()
    return _image(await asyncio.to_thread(card_png, code, variant, locale))


async def back(request: web.Request) -> web.Response:
    return _image(await asyncio.to_thread(back_png))
