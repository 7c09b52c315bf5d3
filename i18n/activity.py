"""The words the Discord Activity (activity/, a browser app) shows, as raw templates.

The browser fills their `{placeholders}` itself (names, figures), so it gets each message's text
as written, falling back to English per key like `t`. The Activity's own messages are the
`activity.*` keys; the rest are the bot's words for the same things, so a button reads the same
in Discord's messages and in the Activity. `activity.boot.*` are the few shown before a session
(and its locale) exists, sent for every language at once.
"""

from __future__ import annotations

from i18n.core import DEFAULT_LOCALE, SUPPORTED_LOCALES, catalog, message_keys, resolve_locale

PREFIX = "activity."
BOOT_PREFIX = "activity.boot."
# The bot's words the Activity shows as they are (each a single form with plain placeholders).
SHARED = (
    "action.draw", "action.quit", "action.quit.confirm", "action.quit.yes", "action.quit.back",
    "game.over", "game.rematch", "lobby.button.join", "lobby.button.add_ai",
    "lobby.button.start", "lobby.ready", "stats.rating", "table.last_moves", "table.on_turn",
    "table.quit_marker", "table.round", "table.seats", "table.top_card",
)


def activity_keys() -> tuple[str, ...]:
    own = (k for k in message_keys() if k.startswith(PREFIX) and not k.startswith(BOOT_PREFIX))
    return (*SHARED, *sorted(own))


def _template(key: str, locale: str) -> str:
    message = catalog(locale).messages.get(key) or catalog(DEFAULT_LOCALE).messages[key]
    if message.plural:
        raise ValueError(f"{key!r} is a plural message: the Activity takes single texts")
    return message.forms[0]


def activity_words(locale: str) -> dict[str, str]:
    """Every word the Activity shows, in `locale` (a Discord locale is fine: "es-419")."""
    language = resolve_locale(locale)
    return {key: _template(key, language) for key in activity_keys()}


def activity_boot_words() -> dict[str, dict[str, str]]:
    """The words shown before signing in, in every language: {"en": {...}, "cs": ..., ...}."""
    keys = sorted(k for k in message_keys() if k.startswith(BOOT_PREFIX))
    return {loc: {key: _template(key, loc) for key in keys} for loc in SUPPORTED_LOCALES}
