"""The corner letters of the llama cards in a language, for cardart (which knows no
languages: it draws the letters it is handed). The one place the cogs, the bot's warm-up and
the docs' pictures ask i18n for them; web/cards.py asks i18n itself (the pages know no cogs).
"""

from __future__ import annotations

from functools import lru_cache

import i18n
from cardart import CornerLetters


@lru_cache(maxsize=16)
def corner_letters(locale: str) -> CornerLetters:
    """L, R and K in Czech ("K" for komár): the same value for the same locale, every time."""
    return CornerLetters(**i18n.corner_letters(locale))


def every_language() -> tuple[CornerLetters, ...]:
    """The letters of every language the bot speaks, for `cardart.warm_up`."""
    return tuple(corner_letters(locale) for locale in i18n.SUPPORTED_LOCALES)
