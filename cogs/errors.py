"""One place that turns a refusal into a friendly, ephemeral answer in the reader's language.

Which message says each refusal is the one table in hosting/refusals.py (the Activity says
them too); here its placeholders are filled the Discord way: channels as <#id>, commands as
mentions, cards with their emoji, names escaped for markdown.

Domain errors (the engine's IllegalAction, the hosting layer's HostingError) are expected:
they get an explanation and change nothing. Anything else is a bug: it is logged with the
game and user ids, and the user still gets an answer instead of "did not respond".
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

import i18n
from hosting import HostingError, refusals
from hosting.views import GameView
from lama import IllegalAction, Reason
from store import StoreBusy, StoreUnwritable

from .mentions import command
from .text import card_phrase, choices_text, jump_link, seat_name, t, variant_name
from .timely import TimelyResponse

if TYPE_CHECKING:
    from .host import LamaHost

log = logging.getLogger(__name__)


def explain(error: Exception, locale: str, view: GameView | None = None) -> str:
    """The sentence that tells a user why nothing happened, in their language."""
    if isinstance(error, IllegalAction):
        return _explain_illegal(error, locale, view)
    if isinstance(error, HostingError):
        return _explain_problem(error, locale)
    if isinstance(error, StoreBusy):
        return t("error.not_saved.busy", locale)
    if isinstance(error, StoreUnwritable):
        return t("error.not_saved.unwritable", locale)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t("error.guild_only", locale)
    if isinstance(error, app_commands.CheckFailure):
        return t("error.missing_permission", locale)
    return t("error.unexpected", locale)


def _explain_illegal(error: IllegalAction, locale: str, view: GameView | None) -> str:
    variant = view.options.variant if view else "party"
    unknown = i18n.Phrase.plain("?")
    params: dict[str, Any] = {
        "variant": variant_name(variant, locale),
        "card": card_phrase(error.card.code, locale, variant) if error.card else unknown,
        "top": card_phrase(view.top_card, locale, variant) if view and view.top_card else unknown,
        "cards": choices_text(error.playable, locale, variant),
    }
    if error.reason is Reason.NOT_YOUR_TURN and view is not None and view.current_seat is not None:
        params["name"] = seat_name(view.seats[view.current_seat], locale)
    return t(refusals.reason_key(error, view), locale, **params)


def _explain_problem(error: HostingError, locale: str) -> str:
    details = error.details
    params = {
        "command": command(refusals.problem_command(error)),
        "name": _who(details),
        "option": details.get("option", "?"),
        "value": details.get("value", "?"),
        "link": _jump_link(details),
        "game_id": details.get("game_id", "?"),
        "season": details.get("season", "?"),
    }
    if "channel_id" in details:
        params["channel"] = f"<#{details['channel_id']}>"
    if "channel_ids" in details:
        params["games"] = i18n.format_list([f"<#{c}>" for c in details["channel_ids"]], locale)
    key = refusals.problem_key(error)
    return t(key, locale, refusals.problem_count(error), **params)


async def answer(interaction: discord.Interaction, content: str) -> None:
    """Answer ephemerally whether or not the interaction was already responded to (or only
    deferred by cogs.timely because its handler was slow)."""
    response = interaction.response
    if isinstance(response, TimelyResponse) and response.awaits_answer():
        await response.send_message(content, ephemeral=True)
    elif response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await response.send_message(content, ephemeral=True)


async def report(interaction: discord.Interaction, error: Exception) -> None:
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    expected = isinstance(  # the store logged its own failures
        error, IllegalAction | HostingError | app_commands.CheckFailure | StoreBusy
        | StoreUnwritable)
    if not expected:
        log.exception(
            "unexpected error for user %s in channel %s",
            interaction.user.id,
            interaction.channel_id,
            exc_info=error,
        )
    try:
        text = explain(error, _reader_locale(interaction), _game_of(interaction))
        await answer(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell user %s about %r", interaction.user.id, error)


def _reader_locale(interaction: discord.Interaction) -> str:
    """The bot's choice (it knows /lama language overrides), else the client's locale."""
    return _bot(interaction).locales.locale_of(interaction)


def _bot(interaction: discord.Interaction) -> LamaHost:
    """The client every interaction of ours comes through."""
    return cast("LamaHost", interaction.client)


def _who(details: dict) -> str:
    """The user a refusal names ({name}): the host or organiser who may, as a mention; or a
    user the command named."""
    for key in ("host_id", "organiser_id"):
        if details.get(key) is not None:
            return f"<@{details[key]}>"
    return details.get("user", "?")


def _jump_link(details: dict) -> str:
    """A URL that opens the message a refusal points at, else its channel: the target of a
    masked link in the message (`[a game in this channel]({link})`, never a bare URL)."""
    if details.get("guild_id") and details.get("channel_id"):
        return jump_link(details["guild_id"], details["channel_id"], details.get("message_id"))
    return ""


def _game_of(interaction: discord.Interaction) -> GameView | None:
    """The game an interaction is about, if any, to explain a refusal with its state."""
    try:
        return _bot(interaction).service.route(
            interaction.user.id, interaction.channel_id, interaction.guild_id
        )
    except HostingError:
        return None
