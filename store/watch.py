"""What the Activity's live views read where other processes write the database: each watched
game's mark (what changes whenever anything a viewer sees changes) and the active game of
each watched place, many at once, two statements a round however many are watched; and, for a
page that connects to a place without an active game, the game that just ended there."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from store.db import Database
from store.game_rows import ACTIVE
from store.records import GameStatus

# The newest game of a place whatever its status: of the channel (games_by_channel) and of the
# game thread it is (games_by_thread), one step in each index (migration 0029); parameters:
# the place twice.
NEWEST_IN_PLACE = (
    "SELECT id, status, finished_at FROM ("
    "SELECT * FROM (SELECT id, status, finished_at FROM games WHERE channel_id = ? "
    "ORDER BY id DESC LIMIT 1) AS by_channel UNION ALL "
    "SELECT * FROM (SELECT id, status, finished_at FROM games WHERE thread_id = ? "
    "ORDER BY id DESC LIMIT 1) AS by_thread) AS newest ORDER BY id DESC LIMIT 1")


@dataclass(frozen=True, slots=True)
class GameMark:
    """What a game shows as stored now: its status, its last move, its thread, and who sits
    where (a lobby changes by its seats alone; a running game's seat handed to an AI too)."""

    status: GameStatus
    last_seq: int
    thread_id: int | None
    seats: tuple[tuple[int, int | None, bool], ...]  # seat, its user (None: an AI), left


class WatchStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def marks(self, game_ids: Collection[int]) -> dict[int, GameMark]:
        """The marks of these games as stored (a game not stored: absent)."""
        if not game_ids:
            return {}
        ids = sorted(game_ids)
        marks = ", ".join("?" * len(ids))
        games = await self._db.fetchall(
            f"SELECT id, status, last_seq, thread_id FROM games WHERE id IN ({marks})", ids)
        seats = await self._db.fetchall(
            "SELECT game_id, seat, user_id, has_left FROM seats "
            f"WHERE game_id IN ({marks}) ORDER BY game_id, seat", ids)
        by_game: dict[int, list[tuple[int, int | None, bool]]] = {}
        for row in seats:
            by_game.setdefault(row["game_id"], []).append(
                (row["seat"], row["user_id"], bool(row["has_left"])))
        return {row["id"]: GameMark(GameStatus(row["status"]), row["last_seq"], row["thread_id"],
                                    tuple(by_game.get(row["id"], ())))
                for row in games}

    async def active_in_places(self, place_ids: Collection[int]) -> dict[int, int]:
        """The lobby or running game of each of these channels (or game threads), whichever
        process opened it: place → game; a place with none is absent."""
        if not place_ids:
            return {}
        places = sorted(place_ids)
        marks = ", ".join("?" * len(places))
        rows = await self._db.fetchall(
            f"SELECT g.id, g.channel_id, g.thread_id FROM games g WHERE {ACTIVE} "
            f"AND (g.channel_id IN ({marks}) OR g.thread_id IN ({marks})) ORDER BY g.id",
            [*places, *places])
        found: dict[int, int] = {}
        wanted = set(places)
        for row in rows:  # a channel's own game before one whose thread it is
            if row["thread_id"] in wanted:
                found.setdefault(row["thread_id"], row["id"])
        for row in rows:
            if row["channel_id"] in wanted:
                found[row["channel_id"]] = row["id"]
        return found

    async def ended_in_place(self, place_id: int, since: int) -> int | None:
        """The newest game of this channel (or game thread), whichever process ended it, if
        it finished at `since` (Unix seconds) or later; None where it ended before, or a game
        opened there since (a lobby, a running game, or one cancelled)."""
        row = await self._db.fetchone(NEWEST_IN_PLACE, (place_id, place_id))
        if row is None or GameStatus(row["status"]) is not GameStatus.FINISHED:
            return None
        return int(row["id"]) if row["finished_at"] >= since else None

    async def explain_ended_in_place(self) -> list[str]:
        """The plan of `ended_in_place`'s statement (`Transaction.explain`), for tests."""
        async with self._db.read() as tx:
            return await tx.explain(NEWEST_IN_PLACE, (1, 1), as_if_large=True)
