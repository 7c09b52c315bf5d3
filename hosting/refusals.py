"""The one table of refusals: which catalogue message says why a request changed nothing.

A refusal is typed (the engine's `IllegalAction` with its `Reason`, the hosting layer's
`HostingError` with its `Problem`); every interface says it in the reader's language with
the message this module names, so a refused move reads the same from a slash command, a
button and the Activity. What fills the message's placeholders is each interface's own
business (a Discord message names a channel as <#id> and a command as a mention, the
Activity in plain words): here are only the keys, the number a plural message counts, and
the command a refusal suggests. No Discord in sight.
"""

from __future__ import annotations

from lama import IllegalAction, Reason

from .errors import HostingError, Problem
from .views import GameView

PROBLEM_KEYS = {
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
    Problem.SEAT_OF_TOURNAMENT: "error.kick_tournament_table",
    Problem.NOT_ENOUGH_ENTRANTS: "error.not_enough_entrants",
    Problem.NOT_ENOUGH_HUMANS: "error.not_enough_humans",
}
COMMAND_OF_PROBLEM = {  # the command a refusal suggests instead (else "lama hand")
    Problem.NO_GAME_HERE: "lama new",
    Problem.CANNOT_KICK_SELF: "lama leave",
    Problem.NOT_A_PLAYER: "lama new",
}
COMMAND_OF_AREA = {  # an unknown press about one of these: the command that shows it now
    "leaderboard": "leaderboard", "tournament": "lama tournament standings",
    "replay": "lama replay", "forget": "lama forget-me",
}
# The detail a refusal counts: its message is a plural entry and says the number as {count}.
COUNTED_DETAIL = {
    Problem.LOBBY_FULL: "limit",
    Problem.NOT_ENOUGH_PLAYERS: "minimum",
    Problem.NOT_ENOUGH_ENTRANTS: "minimum",
    Problem.NOT_ENOUGH_HUMANS: "tables",
}
REASON_KEYS = {
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
HINT_KEYS: dict[Problem | Reason, str] = {
    Problem.NO_GAME_HERE: "play.hint.no_game_here",
    Problem.AMBIGUOUS_GAME: "play.hint.dm_ambiguous",
    Problem.GAME_NOT_STARTED: "play.hint.game_not_started",
    Problem.GAME_FINISHED: "play.hint.game_over",
    Problem.NOT_IN_GAME: "play.hint.not_in_game",
    Reason.NOT_YOUR_TURN: "play.hint.not_your_turn",
    Reason.ALREADY_QUIT: "play.hint.out_of_round",
    Reason.CARD_NOT_PLAYABLE: "play.hint.nothing_fits",
}


def reason_key(error: IllegalAction, view: GameView | None) -> str:
    """The message of a move the engine refused. "Not your turn" names who is on turn
    ({name}) where the game is known; a card that fits nowhere says which cards would
    ({cards}) unless there are none."""
    if error.reason is Reason.ALREADY_QUIT and timed_out(error, view):
        return "error.timed_out"
    if error.reason is Reason.NOT_YOUR_TURN and (view is None or view.current_seat is None):
        return "error.not_your_turn.short"
    if error.reason is Reason.CARD_NOT_PLAYABLE and not error.playable:
        # no card named: /play picked while nothing in the hand fits (hint_key)
        return "error.card_not_playable.none" if error.card else "error.nothing_fits"
    return REASON_KEYS[error.reason]


def timed_out(error: IllegalAction, view: GameView | None) -> bool:
    """The seat is out of this round because its turn timer ran out, not by its own quit."""
    if view is None or error.seat is None or not 0 <= error.seat < len(view.seats):
        return False
    return view.seats[error.seat].timed_out


def problem_key(error: HostingError) -> str:
    """The message of a request the hosting layer refused."""
    details, problem = error.details, error.problem
    if problem is Problem.NOT_HOST and details.get("admin_ok"):
        return "error.not_host_or_admin"  # cancel and kick: Manage Server may, too
    if problem is Problem.WRONG_CHANNEL and "channel_id" in details:
        return "error.games_channel_only"
    if problem is Problem.NO_GAME_HERE and details.get("in_dm"):
        return "error.dm_no_game"
    if problem is Problem.OTHER_SERVER and details.get("in_dm"):
        return "error.button_not_in_dm"
    if problem is Problem.UNKNOWN_PRESS:  # a button, a select menu or a form
        return f"error.unknown_press.{details.get('area') or details.get('kind', 'button')}"
    return PROBLEM_KEYS[problem]


def problem_count(error: HostingError) -> int | None:
    """The number a plural refusal counts (a lobby's limit, a minimum), if it counts one."""
    return error.details.get(COUNTED_DETAIL.get(error.problem, ""))


def problem_command(error: HostingError) -> str:
    """The slash command a refusal suggests ({command}): what to do instead, or what shows
    now what an unknown press was about."""
    area = error.details.get("area") if error.problem is Problem.UNKNOWN_PRESS else None
    if area:
        return COMMAND_OF_AREA[area]
    return COMMAND_OF_PROBLEM.get(error.problem, "lama hand")


def hint_key(error: Exception, *, names_player: bool) -> str | None:
    """The message key of a refusal's short form, for why /play offers no card: plain text
    that fits a choice, with the player on turn as {name} (`names_player`: their name is
    known). None for a refusal that has no short form."""
    if isinstance(error, IllegalAction):
        if error.reason is Reason.NOT_YOUR_TURN and not names_player:
            return "error.not_your_turn.short"
        return HINT_KEYS.get(error.reason)
    if isinstance(error, HostingError):
        if error.problem is Problem.NO_GAME_HERE and error.details.get("in_dm"):
            return "play.hint.dm_no_game"
        return HINT_KEYS.get(error.problem)
    return None
