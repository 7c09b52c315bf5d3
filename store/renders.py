"""The render outbox (migration 0014): which games have committed changes not yet shown.

Written inside the transactions of store/games.py (a game's start, each move), so a change
and the note that it must be shown commit together; cleared by `mark_shown` (in the
batch that stores message ids, see `GameStore.save_message_refs`) once the interface has
shown a game up to a seq. Plain SQL (INSERT … ON CONFLICT) that SQLite and
PostgreSQL both run.
"""

from __future__ import annotations

from store.backend import Statement, Transaction
from store.db import Database
from store.records import PendingRender


def needs_showing_statement(game_id: int, seq: int, now: int) -> Statement:
    """Move `seq` of the game (0: its start) must be shown; earlier unshown ones stay due.
    A statement, for the batch of a move's usual commit (store/games.py) too."""
    return Statement(
        "INSERT INTO render_outbox (game_id, from_seq, to_seq, created_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET to_seq = excluded.to_seq",
        (game_id, seq, seq, now),
    )


async def needs_showing(tx: Transaction, game_id: int, seq: int, now: int) -> None:
    statement = needs_showing_statement(game_id, seq, now)
    await tx.execute(statement.sql, statement.params)


async def mark_shown(tx: Transaction, game_id: int, seq: int) -> None:
    """Everything of the game up to move `seq` is shown; a newer move stays due."""
    await tx.execute(
        "DELETE FROM render_outbox WHERE game_id = ? AND to_seq <= ?", (game_id, seq)
    )
    await tx.execute(
        "UPDATE render_outbox SET from_seq = ? WHERE game_id = ? AND from_seq <= ?",
        (seq + 1, game_id, seq),
    )


class RenderStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def pending(self) -> list[PendingRender]:
        """Every game with something committed and not shown, oldest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT game_id, from_seq, to_seq, created_at FROM render_outbox "
                "ORDER BY created_at, game_id"
            )
        return [PendingRender(r["game_id"], r["from_seq"], r["to_seq"], r["created_at"])
                for r in rows]

    async def pending_of(self, game_id: int) -> PendingRender | None:
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT game_id, from_seq, to_seq, created_at FROM render_outbox "
                "WHERE game_id = ?", (game_id,)
            )
        return None if row is None else PendingRender(
            row["game_id"], row["from_seq"], row["to_seq"], row["created_at"])
