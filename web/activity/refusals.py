"""Why a request from the Activity changed nothing, in the player's language: the same
messages as the slash commands and buttons say (the one table, hosting/refusals.py), with
their placeholders filled in plain words, for a page rather than a Discord message: a card
by its name, a player by their name as it is, a channel as "#name", a command as "/lama hand"."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import i18n
from hosting import HostingError, refusals
from hosting.views import GameView, SeatView, ai_called
from lama import IllegalAction, Reason
from store import StoreBusy, StoreUnwritable

log = logging.getLogger(__name__)

PlaceName = Callable[[int], str | None]  # a channel's "#name", if the bot knows it


def seat_name(seat: SeatView, locale: str) -> str:
    """A seat as the Activity names it: an AI by its number, a player by their own name."""
    if seat.user_id is None:
        return "🤖 " + i18n.translate("ai.name", locale, number=ai_called(seat.index,
                                                                             seat.ai_number))
    return f"🤖 {seat.name}" if seat.ai_level is not None else seat.name


def explain(error: Exception, locale: str, view: GameView | None,
            place_name: PlaceName) -> str:
    """The sentence that says why nothing happened (a bug is logged and still answered)."""
    if isinstance(error, IllegalAction):
        return _illegal(error, locale, view)
    if isinstance(error, HostingError):
        return _problem(error, locale, view, place_name)
    if isinstance(error, StoreBusy):
        return i18n.translate("error.not_saved.busy", locale)
    if isinstance(error, StoreUnwritable):
        return i18n.translate("error.not_saved.unwritable", locale)
    log.exception("an Activity request failed", exc_info=error)
    return i18n.translate("error.unexpected", locale)


def _illegal(error: IllegalAction, locale: str, view: GameView | None) -> str:
    variant = view.options.variant if view else "party"
    unknown = i18n.Phrase.plain("?")
    names = [i18n.card_name(c.code, variant, locale) for c in error.playable]
    params: dict[str, Any] = {
        "variant": i18n.translate(f"variant.{variant}", locale),
        "card": i18n.card_phrase(error.card.code, variant, locale) if error.card else unknown,
        "top": (i18n.card_phrase(view.top_card, variant, locale)
                if view and view.top_card else unknown),
        "cards": i18n.format_list(names, locale, style="or"),
    }
    if error.reason is Reason.NOT_YOUR_TURN and view is not None and view.current_seat is not None:
        params["name"] = i18n.isolate(seat_name(view.seats[view.current_seat], locale))
    return i18n.translate(refusals.reason_key(error, view), locale, **params)


def _who(details: dict[str, Any], view: GameView | None, locale: str) -> str:
    """The player a refusal names ({name}: the host who may), by their seat's name."""
    user_id = details.get("host_id", details.get("organiser_id"))
    seat = view.seat_of(user_id) if view is not None and user_id is not None else None
    return i18n.isolate(seat_name(seat, locale)) if seat is not None else "?"


def _problem(error: HostingError, locale: str, view: GameView | None,
             place_name: PlaceName) -> str:
    details = error.details

    def place(channel_id: int) -> str:
        return place_name(channel_id) or "#…"

    params = {
        "command": "/" + refusals.problem_command(error),
        "name": _who(details, view, locale),
        "option": details.get("option", "?"),
        "value": details.get("value", "?"),
        "link": place(details["channel_id"]) if "channel_id" in details else "",
        "game_id": details.get("game_id", "?"),
        "season": details.get("season", "?"),
    }
    if "channel_id" in details:
        params["channel"] = place(details["channel_id"])
    if "channel_ids" in details:
        params["games"] = i18n.format_list([place(c) for c in details["channel_ids"]], locale)
    return i18n.translate(refusals.problem_key(error), locale, refusals.problem_count(error),
                          **params)
