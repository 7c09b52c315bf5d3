"""The render outbox (migrations 0014, 0016): the committed moves not yet shown on Discord,
one row per move, each held by the process that shows it.

A row is written inside the transactions of store/games.py (a game's start is move 0, then
each move), so a change and the note that it must be shown commit together, held by the
committing process (`process`, this store's name among the processes sharing the database).
The interface deletes exactly the moves it showed (`mark_shown`, in the batch that stores
message ids, see `GameStore.save_message_refs`): a process that shows move 6 leaves move 5
due when another process committed it and has not shown it yet.

While a process shows a game it renews the rows it holds of it (`renew`). A row whose holder
has not said so for a while is a lost render (its process died between commit and Discord, or
lost it): any process may `claim` it, exactly once — one UPDATE that moves the row to the
claimer, picking rows with FOR UPDATE SKIP LOCKED on PostgreSQL (two claimers never wait for
each other nor take the same row, a renewal never waits for a row being deleted); SQLite has
one writer at a time anyway. Plain SQL otherwise, for both dialects.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from store.backend import Row, Statement, Transaction, skip_locked
from store.db import Database
from store.records import PendingRender

DEFAULT_PROCESS = "main"  # a store opened alone (tools, tests): one name for all its parts


def needs_showing_statement(game_id: int, seq: int, now: int, process: str) -> Statement:
    """Move `seq` of the game (0: its start) must be shown; `process` shows it. A statement,
    for the batch of a move's usual commit (store/games.py) too."""
    return Statement(
        "INSERT INTO render_outbox (game_id, seq, owner, held_at, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (game_id, seq, process, now, now),
    )


async def needs_showing(tx: Transaction, game_id: int, seq: int, now: int, process: str) -> None:
    statement = needs_showing_statement(game_id, seq, now, process)
    await tx.execute(statement.sql, statement.params)


SHOWN = "DELETE FROM render_outbox WHERE game_id = ? AND seq = ?"


def shown_statements(shown: Sequence[tuple[int, int]]) -> list[Statement]:
    """`mark_shown` as statements, for SQLite's batch that stores message ids in one trip."""
    return [Statement(SHOWN, pair) for pair in sorted(set(shown))]


async def mark_shown(tx: Transaction, shown: Sequence[tuple[int, int]]) -> None:
    """These (game, move) pairs are on Discord: exactly those rows go, in key order (two
    processes deleting rows of one game never wait for each other in a cycle)."""
    await tx.executemany(SHOWN, sorted(set(shown)))


def _grouped(rows: Sequence[Row]) -> list[PendingRender]:
    """Rows of (game_id, seq, created_at) as one PendingRender per game, oldest game first."""
    seqs: dict[int, list[int]] = {}
    created: dict[int, int] = {}
    for row in rows:
        game_id = row["game_id"]
        seqs.setdefault(game_id, []).append(row["seq"])
        created[game_id] = min(row["created_at"], created.get(game_id, row["created_at"]))
    games = sorted(seqs, key=lambda game_id: (created[game_id], game_id))
    return [PendingRender(g, tuple(sorted(seqs[g])), created[g]) for g in games]


class RenderStore:
    def __init__(self, db: Database, process: str = DEFAULT_PROCESS) -> None:
        self._db = db
        self.process = process  # this process's name in `owner`

    async def pending(self) -> list[PendingRender]:
        """Every game with committed moves not shown, whoever holds them, oldest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall("SELECT game_id, seq, created_at FROM render_outbox")
        return _grouped(rows)

    async def held_of(self, game_id: int) -> PendingRender | None:
        """The game's moves that this process holds and has not shown (a retry shows them)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT game_id, seq, created_at FROM render_outbox "
                "WHERE game_id = ? AND owner = ?", (game_id, self.process)
            )
        grouped = _grouped(rows)
        return grouped[0] if grouped else None

    async def renew(self, now: int, game_ids: Collection[int]) -> None:
        """This process is alive and still showing these games: the rows it holds of them
        are held as of `now` (a row being deleted or claimed meanwhile is skipped)."""
        if not game_ids:
            return
        async def hold(tx: Transaction) -> None:
            await tx.executemany(
                "UPDATE render_outbox SET held_at = ? WHERE (game_id, seq) IN (SELECT game_id, "
                "seq FROM render_outbox WHERE game_id = ? AND owner = ?"
                f"{skip_locked(tx.dialect)})",
                [(now, game_id, self.process) for game_id in sorted(game_ids)],
            )
        await self._db.write(hold)

    async def claim(self, now: int, held_before: int | None) -> list[PendingRender]:
        """Take, for this process to show, every row not held since before `held_before`,
        whoever held it (this process too: it lost that render); None: every row (no other
        process shares the database, e.g. at a single process's start). Each row is taken
        once."""
        stale, params = "", [self.process, now]
        if held_before is not None:
            stale = " WHERE held_at < ?"
            params.append(held_before)
        async def take(tx: Transaction) -> list[Row]:
            return await tx.fetchall(
                "UPDATE render_outbox SET owner = ?, held_at = ? WHERE (game_id, seq) IN ("
                f"SELECT game_id, seq FROM render_outbox{stale}{skip_locked(tx.dialect)}) "
                "RETURNING game_id, seq, created_at",
                params,
            )
        return _grouped(await self._db.write(take))
