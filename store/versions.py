"""A game's stored version (its status and last_seq), read for many games in one statement
on PostgreSQL.

Where other processes write the database, a process checks a game's stored version before it
shows a player what they may do, and before it lets a refusal stand (hosting/loader.py
`is_behind`): about one read per turn of every game. On PostgreSQL each was a statement and a
round trip of its own, on a pooled connection; now the reads asked for while one is under way
go together as one `id = ANY(...)` read (its own snapshot, as each read had). SQLite serves
its one-statement reads together already (store/batches.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from store.backend import Database, Dialect
from store.batches import GroupCommit
from store.records import GameStatus

Version = tuple[GameStatus, int]
ONE = "SELECT status, last_seq FROM games WHERE id = ?"
MANY = "SELECT id, status, last_seq FROM games WHERE id = ANY(?)"


class Versions:
    def __init__(self, db: Database) -> None:
        self._db = db
        # one read at a time: those asked for meanwhile wait for the next, all together
        self._reads: GroupCommit[int, Version | None] = GroupCommit(
            self._read, asyncio.Lock(), "game-versions")

    async def version(self, game_id: int) -> Version | None:
        """The game's status and last_seq as stored now; None: no such game."""
        if self._db.dialect is not Dialect.POSTGRESQL:
            row = await self._db.fetchone(ONE, (game_id,))
            return None if row is None else (GameStatus(row["status"]), row["last_seq"])
        return await self._reads.submit(game_id)

    async def _read(self, game_ids: Sequence[int]) -> list[Version | None]:
        rows = await self._db.fetchall(MANY, (sorted(set(game_ids)),))
        found = {row["id"]: (GameStatus(row["status"]), row["last_seq"]) for row in rows}
        return [found.get(game_id) for game_id in game_ids]
