"""A game that ended, as a view shows its end: its standings with their rating changes and its
last moves (the last round's result among them). The process that ends a game has all of it
in memory; one that did not see it end (another process ended it, or this one restarted since)
reads it from the store: the row, the rating changes, the move log replayed."""

from __future__ import annotations

import logging

from store import GameStatus, Store

from .hosted import RECENT_EVENTS, HostedGame
from .registry import GameRegistry
from .replay import recall
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


async def ended_copy(store: Store, registry: GameRegistry, game_id: int) -> HostedGame | None:
    """This process's copy of a finished game, for a view of its end: the one it holds, else
    the stored game with its rating changes and its last events, kept among the ended games
    (a bounded number: registry.py). None: no such game, or it is not finished."""
    held = registry.find(game_id)
    if held is not None:
        return held
    record = await store.games.get_game(game_id)
    if record is None or record.status is not GameStatus.FINISHED:
        return None
    hosted = HostedGame.from_record(record)
    hosted.ratings = await rating_changes(store, game_id)
    if hosted.game is not None:
        recalled = await recall(store, game_id, hosted.game, hosted.seq)
        hosted.recent.extend(recalled.events[-RECENT_EVENTS:])
    held = registry.find(game_id)  # loaded by another task meanwhile
    if held is not None:
        return held
    registry.register(hosted)
    registry.retire(hosted)
    return hosted
