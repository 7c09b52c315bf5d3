"""A tournament's refusals that need no store: who may run it, whether its field can start,
and what a store conflict means to the one who asked (hosting/tournament.py)."""

from __future__ import annotations

from store.tournaments import Tournament, TournamentConflict

from .errors import HostingError, Problem

MIN_ENTRANTS = 3  # fewer is a game, not a tournament


def require_organiser(tournament: Tournament, actor_id: int, is_admin: bool) -> None:
    if actor_id != tournament.organiser_id and not is_admin:
        raise HostingError(Problem.NOT_ORGANISER, organiser_id=tournament.organiser_id)


def check_field(tournament: Tournament) -> None:
    entrants = len(tournament.entries)
    humans = sum(e.user_id is not None for e in tournament.entries)
    tables = -(-entrants // tournament.table_size)
    if entrants < MIN_ENTRANTS:
        raise HostingError(Problem.NOT_ENOUGH_ENTRANTS, minimum=MIN_ENTRANTS)
    if humans < tables:
        raise HostingError(Problem.NOT_ENOUGH_HUMANS, tables=tables)


def conflict_problem(error: TournamentConflict) -> HostingError:
    return HostingError({
        "not_found": Problem.NO_TOURNAMENT,
        "channel_busy": Problem.TOURNAMENT_EXISTS,
        "already_entered": Problem.ALREADY_ENTERED,
        "not_entered": Problem.NOT_ENTERED,
        "full": Problem.TOURNAMENT_FULL,
    }.get(error.reason, Problem.TOURNAMENT_STARTED))
