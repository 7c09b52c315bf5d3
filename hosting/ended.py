"""A game that ended, as a view shows its end: its standings with their rating changes and its
last moves (the last round's result among them). The process that ends a game has all of it
in memory; one that did not see it end (another process ended it, or this one restarted since)
reads it from the store: the row, the rating changes, the move log replayed."""

from __future__ import annotations

import logging

from store import Store

from .views import SeatRating

log = logging.getLogger(__name__)


async def rating_changes(store: Store, game_id: int) -> tuple[SeatRating, ...]:
    """The committed rating changes of a finished game's humans (none if unrated)."""
    try:
        changes = await store.ratings.changes_of_game(game_id)
    except Exception:  # the game is over and stored: a missing line must not undo that
        log.exception("could not read the rating changes of game %s", game_id)
        return ()
    return tuple(
        SeatRating(c.seat, c.shown_after, c.delta, c.provisional)
        for c in changes if c.user_id is not None
    )
