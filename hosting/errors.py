"""Why the hosting layer refused a request, as codes an interface can translate."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Problem(StrEnum):
    NO_GAME_HERE = "no_game_here"
    GAME_EXISTS = "game_exists"
    NOT_A_LOBBY = "not_a_lobby"
    NOT_IN_GAME = "not_in_game"
    ALREADY_JOINED = "already_joined"
    LOBBY_FULL = "lobby_full"
    SEATED_ELSEWHERE = "seated_elsewhere"
    NOT_HOST = "not_host"  # details: host_id (the host, a user id), admin_ok
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    GAME_NOT_STARTED = "game_not_started"
    GAME_FINISHED = "game_finished"
    AMBIGUOUS_GAME = "ambiguous_game"
    STALE_BUTTON = "stale_button"
    UNKNOWN_PRESS = "unknown_press"  # no handler knows its custom id; details: kind
    PRESS_LOST = "press_lost"  # matched to a button, but no handler took it (cogs/presses.py)
    OTHER_SERVER = "other_server"  # pressed outside its game's server; details: in_dm
    MOVE_ALREADY_MADE = "move_already_made"  # the same interaction arrived twice
    NOT_SEATED = "not_seated"
    CANNOT_KICK_SELF = "cannot_kick_self"
    NOT_A_PLAYER = "not_a_player"  # a rematch is for the players of the game it replays
    ALREADY_IN_REMATCH = "already_in_rematch"
    REMATCH_EXISTS = "rematch_exists"  # a game has one rematch: details say where it is
    TOURNAMENT_TABLE = "tournament_table"  # no rematch: the tournament seats the next round
    BAD_OPTION = "bad_option"
    WRONG_CHANNEL = "wrong_channel"
    NO_SUCH_SEASON = "no_such_season"  # details: season
    RATING_HAS_NO_PERIOD = "rating_has_no_period"  # a rating covers a season, not a week
    RATING_HAS_NO_VARIANT = "rating_has_no_variant"  # one rating covers every variant
    PERIOD_AND_SEASON = "period_and_season"  # two time windows at once
    NO_TOURNAMENT = "no_tournament"
    TOURNAMENT_EXISTS = "tournament_exists"  # one open tournament per channel
    ALREADY_ENTERED = "already_entered"
    NOT_ENTERED = "not_entered"
    TOURNAMENT_FULL = "tournament_full"
    TOURNAMENT_STARTED = "tournament_started"  # sign-ups are closed
    NOT_ORGANISER = "not_organiser"  # details: organiser_id (a user id)
    # A tournament's table is cancelled only with its tournament, by the organiser or Manage
    # Server (its host is just its first entrant); details: organiser_id
    TABLE_OF_TOURNAMENT = "table_of_tournament"
    # A seat at a tournament's table is the tournament's: only the organiser or Manage Server
    # removes a player from it (its host may not); details: organiser_id
    SEAT_OF_TOURNAMENT = "seat_of_tournament"
    NOT_ENOUGH_ENTRANTS = "not_enough_entrants"  # details: minimum
    NOT_ENOUGH_HUMANS = "not_enough_humans"  # a table without a human; details: tables


class HostingError(Exception):
    """A request the hosting layer refused; nothing was changed.

    `details` carries what an interface needs to explain it (a game's channel, a limit...),
    as plain values: a user by their id, never as some interface's markup.
    """

    def __init__(self, problem: Problem, **details: Any) -> None:
        super().__init__(f"{problem}: {details}" if details else str(problem))
        self.problem = problem
        self.details = details
