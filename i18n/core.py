"""Looking messages up: locales, keys, plural forms, case forms and the English fallback."""

from __future__ import annotations

import logging
from functools import cache

from i18n.catalog import LoadedCatalog, Message, load

log = logging.getLogger("i18n")

SUPPORTED_LOCALES: tuple[str, ...] = ("en", "cs", "es")
DEFAULT_LOCALE = "en"
_SUPPORTED = frozenset(SUPPORTED_LOCALES)


class MissingMessage(KeyError):
    """The key exists in no catalogue, not even English: a typo in the code."""


@cache
def _catalog(locale: str) -> LoadedCatalog:
    return load(locale)


def catalog(locale: str) -> LoadedCatalog:
    return _catalog(locale)


def resolve_locale(discord_locale: object | None) -> str:
    """Map a Discord locale ("cs", "es-ES", "es-419", "en-GB", a ``discord.Locale``…) to one
    of :data:`SUPPORTED_LOCALES`; anything else becomes English.

    Latin-American Spanish (es-419) reads the same catalogue as Spain's: the Spanish texts
    use forms both understand (no vosotros; see i18n/glossary/es.toml)."""
    if type(discord_locale) is str and discord_locale in _SUPPORTED:
        return discord_locale  # already ours: every message looked up asks again
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


def is_public(key: str) -> bool:
    """Whether the English reference marks ``key`` ``#, public``: the whole channel reads it."""
    message = _catalog(DEFAULT_LOCALE).messages.get(key)
    return message is not None and "public" in message.flags


def _lookup(key: str, locale: str, case: str | None = None) -> tuple[Message, LoadedCatalog]:
    """The message in ``locale``, else English. With ``case``: its ``msgctxt`` form, else the
    same language's nominative (a form a language does not need falls back within it)."""
    catalog = _catalog(resolve_locale(locale))
    if case is not None:
        message = catalog.inflections.get((case, key))
        if message is None and key not in catalog.messages:
            message = _catalog(DEFAULT_LOCALE).inflections.get((case, key))
            catalog = _catalog(DEFAULT_LOCALE)
        if message is not None:
            return message, catalog
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


def translate(
    key: str, locale: str, count: int | None = None, *, case: str | None = None, **params: object
) -> str:
    """The message ``key`` in ``locale`` with ``params`` filled in.

    Plural messages need ``count``; it chooses the form by the catalogue's ``Plural-Forms``
    rule (checked against CLDR by the tests) and is passed to the text as ``{count}``.
    ``case`` asks for a grammatical case form (``msgctxt``), e.g. ``"acc"``: see
    :mod:`i18n.phrases`, which builds the card and token phrases messages inflect.
    """
    message, catalog = _lookup(key, locale, case)
    if count is not None:
        params.setdefault("count", count)
    text = _pick_form(message, catalog, count)
    try:
        return text.format(**params)
    except AttributeError as error:
        if catalog.locale == DEFAULT_LOCALE:
            raise TypeError(
                f"{key!r} asks for a case form ({error}): pass an i18n.Phrase "
                "(i18n.card_phrase / i18n.token_phrase), not a plain string"
            ) from error
        log.warning("bad case form in %s message %r; using English", catalog.locale, key)
    except (KeyError, IndexError, ValueError):
        if catalog.locale == DEFAULT_LOCALE:
            raise
        # A translator's typo in a placeholder must not break the game: say it in English.
        log.warning("bad placeholder in %s message %r; using English", catalog.locale, key)
    return translate(key, DEFAULT_LOCALE, count, case=case, **params)


t = translate
