"""Which games may be replayed (Discord's replays and the web's): finished ones, of this server."""

from __future__ import annotations

from store import GameStatus, Store
from store.records import Game as GameRecord


async def finished_record(store: Store, guild_id: int, game_id: int) -> GameRecord | None:
    """A finished game of this server; None for any other game.

    Another server's game, a lobby, a running or a cancelled game are all "not found": an id
    is never a way to peek at hands still in play or at another server.
    """
    record = await store.games.get_game(game_id)
    if (
        record is None
        or record.guild_id != guild_id
        or record.status is not GameStatus.FINISHED
        or record.seed is None
    ):
        return None
    return record
