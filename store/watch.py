"""What the Activity's live views read where other processes write the database: each watched
game's mark (what changes whenever anything a viewer sees changes) and the active game of
each watched place, many at once, two statements a round however many are watched."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from store.db import Database
from store.game_rows import ACTIVE
from store.records import GameStatus


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
