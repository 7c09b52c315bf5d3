"""The words the Activity's page shows, in the viewer's language: sent with every `view` as
`words` (key → text), from the bot's own catalogues, so the page reads like the bot.

They are templates: the page fills their `{placeholders}` (names, figures) itself, so each is
a message's single text as written (English where a language lacks it). The page's own words
are the `activity.*` keys (those shown before signing in, `activity.boot.*`, come with
`GET /activity/api/config` instead, in every language); the bot's words for the same things
(`SHARED`) make a button read alike in Discord and in the Activity.
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

from i18n.core import DEFAULT_LOCALE, SUPPORTED_LOCALES, catalog, message_keys, resolve_locale

PREFIX, BOOT_PREFIX = "activity.", "activity.boot."
SHARED = (
    "action.draw", "action.quit", "action.quit.confirm", "action.quit.yes", "action.quit.back",
    "game.over", "game.rematch", "lobby.button.join", "lobby.button.add_ai",
    "lobby.button.start", "lobby.ready", "stats.rating", "table.last_moves", "table.on_turn",
    "table.quit_marker", "table.round", "table.seats", "table.top_card",
)


def template(key: str, locale: str) -> str:
    message = catalog(locale).messages.get(key) or catalog(DEFAULT_LOCALE).messages[key]
    if message.plural:
        raise ValueError(f"{key!r} is a plural message: the page takes single texts")
    return message.forms[0]


def word_keys() -> tuple[str, ...]:
    own = (k for k in message_keys() if k.startswith(PREFIX) and not k.startswith(BOOT_PREFIX))
    return (*SHARED, *sorted(own))


@cache
def _words(locale: str) -> MappingProxyType[str, str]:
    return MappingProxyType({key: template(key, locale) for key in word_keys()})


def app_words(locale: str) -> dict[str, str]:
    """`words` for a page in `locale` (a Discord locale is fine: "es-419")."""
    return dict(_words(resolve_locale(locale)))


@cache
def boot_words() -> MappingProxyType[str, dict[str, str]]:
    """The words shown before signing in, in every language: {"en": {...}, "cs": ..., ...}."""
    keys = sorted(k for k in message_keys() if k.startswith(BOOT_PREFIX))
    return MappingProxyType({loc: {key: template(key, loc) for key in keys}
                             for loc in SUPPORTED_LOCALES})
