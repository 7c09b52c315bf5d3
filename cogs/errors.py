"""One place that turns a refusal into a friendly, ephemeral answer in the reader's language.

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
from hosting import HostingError, Problem
from hosting.views import GameView
from lama import IllegalAction, Reason
from store import StoreBusy, StoreUnwritable

from .mentions import command
from .text import card_phrase, choices_text, jump_link, seat_name, t, variant_name
from .timely import TimelyResponse

if TYPE_CHECKING:
    from .host import LamaHost

log = logging.getLogger(__name__)


_PROBLEM_KEYS = {
    Problem.NO_GAME_HERE: "error.no_game_here",
    Problem.GAME_EXISTS: "error.game_exists_here",
    Problem.NOT_A_LOBBY: "error.game_already_started",
    Problem.NOT_IN_GAME: "error.not_in_game",
    Problem.ALREADY_JOINED: "error.already_in_lobby",
    Problem.LOBBY_FULL: "error.lobby_full",
    Problem.SEATED_ELSEWHERE: "error.already_seated_elsewhere",
    Problem.NOT_HOST: "error.not_host",
    Problem.NOT_ENOUGH_PLAYERS: "error.not_enough_players",
    Problem.GAME_NOT_STARTED: "error.game_not_started",
    Problem.GAME_FINISHED: "error.game_already_over",
    Problem.AMBIGUOUS_GAME: "error.dm_ambiguous",
    Problem.STALE_BUTTON: "error.stale_button",
    Problem.UNKNOWN_PRESS: "error.unknown_press.button",
    Problem.PRESS_LOST: "error.press_lost",
    Problem.OTHER_SERVER: "error.button_other_server",
    Problem.MOVE_ALREADY_MADE: "error.move_already_made",
    Problem.NOT_SEATED: "error.user_not_in_game",
    Problem.CANNOT_KICK_SELF: "error.cannot_kick_self",
    Problem.NOT_A_PLAYER: "error.rematch_not_a_player",
    Problem.ALREADY_IN_REMATCH: "error.already_in_rematch",
    Problem.REMATCH_EXISTS: "error.rematch_exists",
    Problem.TOURNAMENT_TABLE: "error.rematch_tournament_table",
    Problem.BAD_OPTION: "error.bad_option",
    Problem.WRONG_CHANNEL: "error.guild_only",
    Problem.NO_SUCH_SEASON: "leaderboard.refused.no_such_season",
    Problem.RATING_HAS_NO_PERIOD: "leaderboard.refused.rating_has_no_period",
    Problem.RATING_HAS_NO_VARIANT: "leaderboard.refused.rating_has_no_variant",
    Problem.PERIOD_AND_SEASON: "leaderboard.refused.period_and_season",
    Problem.NO_TOURNAMENT: "error.no_tournament",
    Problem.TOURNAMENT_EXISTS: "error.tournament_exists",
    Problem.ALREADY_ENTERED: "error.already_entered",
    Problem.NOT_ENTERED: "error.not_entered",
    Problem.TOURNAMENT_FULL: "error.tournament_full",
    Problem.TOURNAMENT_STARTED: "error.tournament_started",
    Problem.NOT_ORGANISER: "error.not_organiser",
    Problem.TABLE_OF_TOURNAMENT: "error.cancel_tournament_table",
    Problem.NOT_ENOUGH_ENTRANTS: "error.not_enough_entrants",
    Problem.NOT_ENOUGH_HUMANS: "error.not_enough_humans",
}
_COMMAND_OF_PROBLEM = {  # the command a refusal suggests instead (else "lama hand")
    Problem.NO_GAME_HERE: "lama new",
    Problem.CANNOT_KICK_SELF: "lama leave",
    Problem.NOT_A_PLAYER: "lama new",
}
_COMMAND_OF_AREA = {  # an unknown press about one of these: the command that shows it now
    "leaderboard": "leaderboard", "tournament": "lama tournament standings",
    "replay": "lama replay", "forget": "lama forget-me",
}
# The detail a refusal counts: its message is a plural entry and says the number as {count}.
_COUNTED_DETAIL = {
    Problem.LOBBY_FULL: "limit",
    Problem.NOT_ENOUGH_PLAYERS: "minimum",
    Problem.NOT_ENOUGH_ENTRANTS: "minimum",
    Problem.NOT_ENOUGH_HUMANS: "tables",
}
_REASON_KEYS = {
    Reason.NOT_YOUR_TURN: "error.not_your_turn",
    Reason.ALREADY_QUIT: "error.already_quit",
    Reason.CARD_NOT_IN_GAME: "error.card_not_in_game",
    Reason.CARD_NOT_IN_HAND: "error.card_not_in_hand",
    Reason.CARD_NOT_PLAYABLE: "error.card_not_playable",
    Reason.DRAW_PILE_EMPTY: "error.draw_pile_empty",
    Reason.DRAW_ALONE: "error.draw_alone",
    Reason.ROUND_OVER: "error.round_over",
    Reason.GAME_OVER: "error.game_over",
    Reason.NO_SUCH_SEAT: "error.not_in_game",
}
# Why /play has no card to offer, in a few words: the card autocomplete's one choice (plain
# text, at most 100 characters), the short form of the refusal that choice then gets.
_HINT_KEYS: dict[Problem | Reason, str] = {
    Problem.NO_GAME_HERE: "play.hint.no_game_here",
    Problem.AMBIGUOUS_GAME: "play.hint.dm_ambiguous",
    Problem.GAME_NOT_STARTED: "play.hint.game_not_started",
    Problem.GAME_FINISHED: "play.hint.game_over",
    Problem.NOT_IN_GAME: "play.hint.not_in_game",
    Reason.NOT_YOUR_TURN: "play.hint.not_your_turn",
    Reason.ALREADY_QUIT: "play.hint.out_of_round",
    Reason.CARD_NOT_PLAYABLE: "play.hint.nothing_fits",
}


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
    key = _REASON_KEYS[error.reason]
    unknown = i18n.Phrase.plain("?")
    params: dict[str, Any] = {
        "variant": variant_name(variant, locale),
        "card": card_phrase(error.card.code, locale, variant) if error.card else unknown,
        "top": card_phrase(view.top_card, locale, variant) if view and view.top_card else unknown,
        "cards": choices_text(error.playable, locale, variant),
    }
    if error.reason is Reason.ALREADY_QUIT and _timed_out(error, view):
        key = "error.timed_out"
    if error.reason is Reason.NOT_YOUR_TURN:
        if view is None or view.current_seat is None:
            return t("error.not_your_turn.short", locale)
        params["name"] = seat_name(view.seats[view.current_seat], locale)
    if error.reason is Reason.CARD_NOT_PLAYABLE and not error.playable:
        # no card named: /play picked while nothing in the hand fits (hint, below)
        key = "error.card_not_playable.none" if error.card else "error.nothing_fits"
    return t(key, locale, **params)


def hint_key(error: Exception, *, names_player: bool) -> str | None:
    """The message key of `explain`'s short form, for why /play offers no card: plain text
    that fits a choice, with the player on turn as {name} (`names_player`: their name is
    known). None for a refusal that has no short form."""
    if isinstance(error, IllegalAction):
        if error.reason is Reason.NOT_YOUR_TURN and not names_player:
            return "error.not_your_turn.short"
        return _HINT_KEYS.get(error.reason)
    if isinstance(error, HostingError):
        if error.problem is Problem.NO_GAME_HERE and error.details.get("in_dm"):
            return "play.hint.dm_no_game"
        return _HINT_KEYS.get(error.problem)
    return None


def _timed_out(error: IllegalAction, view: GameView | None) -> bool:
    """The seat is out of this round because its turn timer ran out, not by its own quit."""
    if view is None or error.seat is None or not 0 <= error.seat < len(view.seats):
        return False
    return view.seats[error.seat].timed_out


def _explain_problem(error: HostingError, locale: str) -> str:
    details = error.details
    params = {
        "command": command(_COMMAND_OF_PROBLEM.get(error.problem, "lama hand")),
        "name": details.get("host", details.get("user", details.get("organiser", "?"))),
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
    key = _PROBLEM_KEYS[error.problem]
    if error.problem is Problem.NOT_HOST and details.get("admin_ok"):
        key = "error.not_host_or_admin"  # cancel and kick: Manage Server may, too
    if error.problem is Problem.WRONG_CHANNEL and "channel" in params:
        key = "error.games_channel_only"
    if error.problem is Problem.NO_GAME_HERE and details.get("in_dm"):
        key = "error.dm_no_game"
    if error.problem is Problem.OTHER_SERVER and details.get("in_dm"):
        key = "error.button_not_in_dm"
    if error.problem is Problem.UNKNOWN_PRESS:  # a button, a select menu or a form
        area = details.get("area")
        key = f"error.unknown_press.{area or details.get('kind', 'button')}"
        if area:
            params["command"] = command(_COMMAND_OF_AREA[area])
    return t(key, locale, details.get(_COUNTED_DETAIL.get(error.problem, "")), **params)


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
