"""The words the Activity's page shows, in the viewer's language: sent with every `view` as
`words` (key → text), from the bot's own catalogues, so the page reads like the bot.

They are templates: the page fills their `{placeholders}` (names, figures) itself, so each is
a message's single text as written (English where a language lacks it). Which keys they are
is i18n.activity's (the page's own `activity.*` keys and the bot's shared words); this module
keeps them ready per language. Those shown before signing in (`activity.boot.*`) come with
`GET /activity/api/config` instead, in every language.
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

from i18n.activity import activity_boot_words, activity_words
from i18n.core import resolve_locale


@cache
def _words(locale: str) -> MappingProxyType[str, str]:
    return MappingProxyType(activity_words(locale))


def app_words(locale: str) -> dict[str, str]:
    """`words` for a page in `locale` (a Discord locale is fine: "es-419")."""
    return dict(_words(resolve_locale(locale)))


@cache
def boot_words() -> MappingProxyType[str, dict[str, str]]:
    """The words shown before signing in, in every language: {"en": {...}, "cs": ..., ...}."""
    return MappingProxyType(activity_boot_words())
