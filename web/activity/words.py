"""The words the Activity's page says, in the viewer's language: sent with every `view` as
`words` (key → text), from the bot's own catalogues, so the page reads like the bot.

Only texts without placeholders: the page puts numbers and names next to them itself (the
sentences that hold them, the last moves and refusals, come ready-made). A word the page
needs is a key added here and, if new, to the catalogues (i18n/README.md).
"""

from __future__ import annotations

from functools import cache
from types import MappingProxyType

import i18n

WORD_KEYS = (
    "action.play", "action.draw", "action.quit", "action.quit.confirm", "action.quit.yes",
    "action.quit.back", "lobby.button.join", "lobby.button.leave", "lobby.button.add_ai",
    "lobby.button.start", "table.seats", "table.last_moves",
    "table.draw_pile.empty", "hand.your_turn", "game.over", "game.standings", "game.rematch",
    "activity.open_lobby", "activity.no_game", "activity.not_in_server", "activity.spectating",
)


@cache
def _words(locale: str) -> MappingProxyType[str, str]:
    return MappingProxyType({key: i18n.translate(key, locale) for key in WORD_KEYS})


def app_words(locale: str) -> dict[str, str]:
    """`words` for a page in `locale` (one of the supported languages)."""
    return dict(_words(i18n.resolve_locale(locale)))
