"""Messages in English, Czech and Spanish, from gettext catalogues read with Babel.

    >>> from i18n import t, resolve_locale
    >>> t("table.draw_pile", "cs", count=5)
    'Dobírací balíček: 5 karet'

Keys are stable ids (``error.not_your_turn``); the English catalogue holds the English text.
Placeholders are ``str.format`` names; ``count`` picks the plural form and is also available
to the text as ``{count}``. A key missing from a language falls back to English; a key
missing from English is a programming error and raises :class:`MissingMessage`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import cache
from typing import Literal

from babel import Locale
from babel.lists import format_list as _babel_format_list

from i18n.catalog import LoadedCatalog, Message, load

__all__ = [
    "DEFAULT_LOCALE",
    "SUPPORTED_LOCALES",
    "VARIANTS",
    "MissingMessage",
    "card_name",
    "format_list",
    "has_key",
    "message_keys",
    "resolve_locale",
    "t",
    "translate",
    "translate_variant",
]

log = logging.getLogger(__name__)

SUPPORTED_LOCALES: tuple[str, ...] = ("en", "cs", "es")
DEFAULT_LOCALE = "en"
VARIANTS: tuple[str, ...] = ("classic", "party", "komarami")

# Card codes as the engine writes them → the catalogue key of their name.
_CARD_KEYS = {"L": "card.llama", "P": "card.pink_llama"}


class MissingMessage(KeyError):
    """The key exists in no catalogue, not even English: a typo in the code."""


@cache
def _catalog(locale: str) -> LoadedCatalog:
    return load(locale)


def resolve_locale(discord_locale: object | None) -> str:
    """Map a Discord locale ("cs", "es-ES", "es-419", "en-GB", a ``discord.Locale``…) to one
    of :data:`SUPPORTED_LOCALES`; anything else becomes English."""
    if discord_locale is None:
        return DEFAULT_LOCALE
    # discord.Locale is a str-valued enum whose str() is its value; accept it without importing
    # discord, and accept POSIX spellings like "es_ES.UTF-8" too.
    raw = str(getattr(discord_locale, "value", discord_locale)).strip().lower()
    language = raw.replace("_", "-").split(".")[0].split("-")[0]
    return language if language in SUPPORTED_LOCALES else DEFAULT_LOCALE


def message_keys() -> frozenset[str]:
    """Every message key (the English catalogue is the reference)."""
    return frozenset(_catalog(DEFAULT_LOCALE).messages)


def has_key(key: str) -> bool:
    return key in _catalog(DEFAULT_LOCALE).messages


def _lookup(key: str, locale: str) -> tuple[Message, LoadedCatalog]:
    catalog = _catalog(resolve_locale(locale))
    message = catalog.messages.get(key)
    if message is None:
        catalog = _catalog(DEFAULT_LOCALE)
        message = catalog.messages.get(key)
        if message is None:
            raise MissingMessage(key)
    return message, catalog


def _pick_form(message: Message, catalog: LoadedCatalog, count: int | None) -> str:
    if not message.plural:
        return message.forms[0]
    if count is None:
        raise TypeError(f"{message.key!r} is a plural message: pass count=")
    index = catalog.plural_index(abs(int(count)))
    return message.forms[min(index, len(message.forms) - 1)]


def translate(key: str, locale: str, count: int | None = None, **params: object) -> str:
    """The message ``key`` in ``locale`` with ``params`` filled in.

    Plural messages need ``count``; it chooses the form by the catalogue's ``Plural-Forms``
    rule (checked against CLDR by the tests) and is passed to the text as ``{count}``.
    """
    message, catalog = _lookup(key, locale)
    if count is not None:
        params.setdefault("count", count)
    text = _pick_form(message, catalog, count)
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        if catalog.locale == DEFAULT_LOCALE:
            raise
        # A translator's typo in a placeholder must not break the game: say it in English.
        log.warning("bad placeholder in %s message %r; using English", catalog.locale, key)
        return translate(key, DEFAULT_LOCALE, count, **params)


t = translate


def translate_variant(
    key: str, variant: str, locale: str, count: int | None = None, **params: object
) -> str:
    """Like :func:`translate`, but prefers ``key.<variant>`` when it exists.

    Lato z Komarami calls llamas mosquitoes, so ``card.llama.komarami`` overrides
    ``card.llama`` for that variant only.
    """
    specific = f"{key}.{variant}"
    return translate(specific if has_key(specific) else key, locale, count, **params)


def card_name(code: str, variant: str, locale: str, count: int | None = None) -> str:
    """The name of an engine card code ("1".."6", "1+".."6+", "L", "P") in this variant.

    With ``count``, the counted form ("2 lamy", "5 karet" style); without, the bare name.
    """
    if code in _CARD_KEYS:
        key = _CARD_KEYS[code]
        value = ""
    elif len(code) == 2 and code[1] == "+" and code[0] in "123456":
        key, value = "card.plus", code[0]
    elif len(code) == 1 and code in "123456":
        key, value = "card.number", code
    else:
        raise ValueError(f"unknown card code {code!r}")
    if count is not None:
        key += ".count"
    return translate_variant(key, variant, locale, count, value=value)


ListStyle = Literal[
    "standard", "standard-short", "or", "or-short", "unit", "unit-short", "unit-narrow"
]


def format_list(items: Iterable[str], locale: str, style: ListStyle = "standard") -> str:
    """"A, B and C" / "A, B a C" / "A, B y C" by CLDR (Babel), e.g. for shared winners."""
    return _babel_format_list(list(items), style=style, locale=Locale.parse(resolve_locale(locale)))
