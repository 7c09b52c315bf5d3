"""Messages in English, Czech and Spanish, from gettext catalogues read with Babel.

    >>> from i18n import t, resolve_locale
    >>> t("table.draw_pile", "cs", count=5)
    'Dobírací balíček: 5 karet'

Keys are stable ids (``error.not_your_turn``); the English catalogue holds the English text.
Placeholders are ``str.format`` names; ``count`` picks the plural form and is also available
to the text as ``{count}``. A key missing from a language falls back to English; a key
missing from English is a programming error and raises :class:`MissingMessage`.
Cards and tokens go into sentences as :class:`Phrase` values (case forms, ``{card.acc}``);
lists and numbers go through :mod:`i18n.formatting`. See docs/languages-and-cards.md.
"""

from __future__ import annotations

from i18n.core import (
    DEFAULT_LOCALE,
    SUPPORTED_LOCALES,
    MissingMessage,
    has_key,
    is_public,
    message_keys,
    resolve_locale,
    t,
    translate,
)
from i18n.formatting import format_decimal, format_duration, format_list, format_percent
from i18n.isolates import isolate
from i18n.phrases import (
    CASES,
    VARIANTS,
    Phrase,
    card_name,
    card_phrase,
    corner_letters,
    token_phrase,
    translate_variant,
)

__all__ = [
    "CASES",
    "DEFAULT_LOCALE",
    "SUPPORTED_LOCALES",
    "VARIANTS",
    "MissingMessage",
    "Phrase",
    "card_name",
    "card_phrase",
    "corner_letters",
    "format_decimal",
    "format_duration",
    "format_list",
    "format_percent",
    "has_key",
    "is_public",
    "isolate",
    "message_keys",
    "resolve_locale",
    "t",
    "token_phrase",
    "translate",
    "translate_variant",
]
