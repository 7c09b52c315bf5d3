"""A card as the Activity's page gets it, one shape everywhere (the top card, a hand, a
round's revealed hands)."""

from __future__ import annotations

from typing import Any

import i18n
from lama import Card

from ..cards import slug


def card_json(code: str, variant: str, locale: str) -> dict[str, Any]:
    """A card as the page shows it: its code; `value`, its place in the bot's list of cards
    (what a `play` request may send back for it); its picture, an address below the page's
    `cards/` (served by the bot, through Discord's proxy); its name in the viewer's language."""
    return {"code": code, "value": Card.from_code(code).index,
            "art": f"{variant}/{locale}/{slug(code)}.png",
            "name": i18n.card_name(code, variant, locale)}
