"""The pages' words and numbers in one language: what the templates call to say things.

Texts come from the bot's catalogues (i18n), numbers and dates from Babel (CLDR), so a page
reads like the bot's messages in the same language. Nothing here marks text up: templates
escape every value they print.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from babel.dates import format_date, format_datetime

import i18n
from hosting.options import TIMEOUTS_BEFORE_AI
from hosting.results import Standing
from hosting.stats import ReplaySeat
from hosting.views import ai_called
from lama import events as ev
from store import PlayerResult

# The catalogue's name of each kind of move (the same words as the bot's table).
MOVE_KEYS: dict[type, str] = {
    ev.CardDrawn: "move.drew",
    ev.PlayerQuit: "move.quit",
    ev.ExtraTurn: "move.extra_turn",
}


class Words:
    def __init__(self, locale: str) -> None:
        self.locale = i18n.resolve_locale(locale)

    def t(self, key: str, count: int | None = None, **params: Any) -> str:
        return i18n.translate(key, self.locale, count=count, **params)

    # --- numbers and dates ----------------------------------------------------------------

    def number(self, value: int) -> str:
        return i18n.format_decimal(value, self.locale, digits=0)

    def decimal(self, value: float | None) -> str:
        return "—" if value is None else i18n.format_decimal(value, self.locale)

    def percent(self, value: float | None) -> str:
        return "—" if value is None else i18n.format_percent(value, self.locale)

    def date(self, timestamp: int | None) -> str:
        if timestamp is None:
            return "—"
        return format_date(datetime.fromtimestamp(timestamp, UTC), "medium", locale=self.locale)

    def datetime(self, timestamp: int | None) -> str:
        if timestamp is None:
            return "—"
        moment = datetime.fromtimestamp(timestamp, UTC)
        return format_datetime(moment, "medium", tzinfo=UTC, locale=self.locale) + " UTC"

    @staticmethod
    def signed(delta: int) -> str:
        """A rating change as the bot writes it: +12, −8 (a true minus sign), ±0."""
        if delta > 0:
            return f"+{delta}"
        return f"−{-delta}" if delta < 0 else "±0"

    @staticmethod
    def iso(timestamp: int | None) -> str:
        return "" if timestamp is None else datetime.fromtimestamp(timestamp, UTC).isoformat()

    # --- the game's words -----------------------------------------------------------------

    def variant(self, variant: str | None) -> str:
        return self.t(f"variant.{variant}" if variant else "leaderboard.variant.all")

    def card(self, code: str, variant: str) -> str:
        """A card's name alone (alt text, lists)."""
        return i18n.card_name(code, variant, self.locale)

    def top_card(self, code: str, variant: str) -> str:
        """ "Top card: 4", the card in whatever case the language puts it there."""
        return self.t("table.top_card", card=i18n.card_phrase(code, variant, self.locale))

    def seat(self, seat: ReplaySeat) -> str:
        """A seat's name: an AI's is numbered by its place, as the bot names it everywhere;
        a forgotten player's name was erased."""
        if seat.is_ai:
            return self.ai(ai_called(seat.index, seat.ai_number))
        return seat.name or self.t("stats.forgotten")

    def standing(self, standing: Standing, name: str) -> str:
        """A line of a finished game's final standings, worded as its "Game over" post
        words it (cogs.text.standing_line): '3. Carol: 7 points · left — an AI finished the
        game; counts as last place'; a kicked seat without a place."""
        key = "game.standing" if standing.ranked else "game.standing.unranked"
        line = self.t(key, count=standing.score, rank=standing.place, name=name)
        if standing.note is not None:
            line += " · " + self.t(standing.note, count=TIMEOUTS_BEFORE_AI)
        return line

    def player(self, result: PlayerResult) -> str:
        """A seat of a finished game in a list of results, named like `seat`."""
        if result.is_ai:
            return self.ai(ai_called(result.seat, result.ai_number))
        return result.display_name or self.t("stats.forgotten")

    def ai(self, number: int) -> str:
        return self.t("ai.name", number=number)

    def name(self, name: str | None) -> str:
        return name or self.t("stats.forgotten")

    @staticmethod
    def isolate(name: str) -> str:
        """A member-chosen name inside a sentence, an attribute or the <title> (where a <bdi>
        cannot go): between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, so its own
        direction (or a U+202E it holds) stops at its end instead of turning the rest of the
        line around. Isolates of its own are balanced inside (`i18n.isolate`)."""
        return i18n.isolate(name)

    def move(self, event: object, names: list[str], variant: str) -> str | None:
        """One event of a move as a sentence; None for events that are not moves."""
        if isinstance(event, ev.CardPlayed):
            return self.t("move.played", name=names[event.seat],
                          card=i18n.card_phrase(event.card.code, variant, self.locale))
        if isinstance(event, ev.ForcedQuit):
            alone = event.reason is ev.ForcedQuitReason.ALONE
            key = "move.forced_quit.alone" if alone else "move.forced_quit"
            return self.t(key, name=names[event.seat])
        if isinstance(event, ev.CardDrawn | ev.PlayerQuit | ev.ExtraTurn):
            return self.t(MOVE_KEYS[type(event)], name=names[event.seat])
        return None

    def list(self, items: list[str]) -> str:
        return i18n.format_list(items, self.locale)


def browser_locale(header: str) -> str:
    """The first language of an Accept-Language header the bot speaks, by its weight; else
    English. For pages made before the server is known (a refusal)."""
    weighed: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")[:20]):
        tag, _, options = part.strip().partition(";")
        weight = 1.0
        if options.strip().startswith("q="):
            try:
                weight = float(options.strip()[2:])
            except ValueError:
                continue
        language = tag.strip().lower().split("-")[0]
        if language in i18n.SUPPORTED_LOCALES and weight > 0:
            weighed.append((-weight, position, language))
    return min(weighed)[2] if weighed else i18n.DEFAULT_LOCALE
