"""Loading a finished game for replays (Discord's and the web's), and nothing else."""

from __future__ import annotations

from store import GameStatus, Move, Store
from store.records import Game as GameRecord


async def finished_game(
    store: Store, guild_id: int, game_id: int
) -> tuple[GameRecord, list[Move]] | None:
    """A finished game of this server and its move log; None for any other game.

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
    return record, await store.games.list_moves(game_id)
