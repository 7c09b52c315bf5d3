"""A tournament is cancelled whole: from its sign-up message, or at one of its tables.

A table's game has a host like any game (its first human entrant), but the table is the
tournament's: cancelling it alone would end its round, and the tournament, finding its tables
over, would carry on or finish on results nobody played for. So a table is cancelled only by
the tournament's organiser or someone with Manage Server, and only by cancelling the
tournament, whose tables still to be played are cancelled with it (issue 35). A player who
has to go is absent, not a cancellation: their turns time out and the table plays on.
"""

from __future__ import annotations

import contextlib

from store import Store
from store.tournaments import Tournament

from .errors import HostingError, Problem
from .service import GameService
from .tournament_results import still_to_play


def check_may_cancel_table(tournament: Tournament, actor_id: int, is_admin: bool) -> None:
    """Only the organiser or Manage Server cancels a table, and the tournament with it (the
    game service refuses anyone else the same way: hosting/moderation.py)."""
    if actor_id != tournament.organiser_id and not is_admin:
        raise HostingError(Problem.TABLE_OF_TOURNAMENT,
                           organiser_id=tournament.organiser_id)


async def cancel_tables(store: Store, games: GameService, tournament_id: int) -> None:
    """Every table of a cancelled tournament that is still to be played is cancelled too, as
    the tournament cancels it (not as any player). Its game's end then finds the tournament
    cancelled and seats nothing more."""
    for outcome in await store.tournaments.outcomes(tournament_id):
        game_id = outcome.table.game_id
        if game_id is not None and still_to_play(outcome):
            with contextlib.suppress(HostingError):  # it ended meanwhile
                await games.cancel(game_id, 0, is_admin=True, by_tournament=True)
