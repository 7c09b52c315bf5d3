"""Due timers as rows any process can claim exactly once (issue 16).

A running game's next timer (`games.timer_kind`, `timer_due_ms`) is written by the commit
that sets it. Whoever fires it claims the row in the transaction that applies what it does:
the AI's move or the time-out (`GameStore.commit_move(claim=…)`), or the reminder
(`claim_timer`, which moves the row on to the turn's end). The claim is

    id = (SELECT id FROM games WHERE id = ? AND status = 'running' AND last_seq = ?
          AND timer_kind = ? AND timer_due_ms = ? AND timer_due_ms <= ?
          FOR UPDATE SKIP LOCKED)

so a second claimer finds nothing — the row is locked by the first (PostgreSQL skips it
instead of waiting) or has moved on — and writes nothing. A process that dies inside the
transaction leaves no claim: the rollback frees the row and the timer is still due.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import overload

from store.backend import Dialect, Listening, Params, Transaction, skip_locked
from store.db import Database
from store.records import DueGame, DueTimer, TimerClaim

_CLAIMABLE = (
    "status = 'running' AND last_seq = ? AND (timer_due_ms IS NULL "
    "OR (timer_kind = ? AND timer_due_ms = ? AND timer_due_ms <= ?))"
)
# The sweep's question, answered by the partial index games_running_timer_due (0015).
_DUE = "status = 'running' AND timer_due_ms IS NOT NULL"
_DUE_GAMES = (f"SELECT id, last_seq, timer_kind, timer_due_ms FROM games WHERE {_DUE} "
              "AND timer_due_ms <= ? ORDER BY timer_due_ms LIMIT ?")


@overload
def claim_condition(game_id: int, seq: int, claim: TimerClaim, dialect: Dialect
                    ) -> tuple[str, Params]: ...
@overload
def claim_condition(game_id: int, seq: int, claim: None, dialect: Dialect) -> None: ...


def claim_condition(
    game_id: int, seq: int, claim: TimerClaim | None, dialect: Dialect
) -> tuple[str, Params] | None:
    """A WHERE condition on `games` that holds for the game's row only if this transaction
    claimed its due timer (the row locked, at move `seq`, still holding the timer); None for
    no claim."""
    if claim is None:
        return None
    timer = claim.timer
    sql = f"id = (SELECT id FROM games WHERE id = ? AND {_CLAIMABLE}{skip_locked(dialect)})"
    return sql, (game_id, seq, timer and timer.kind, timer and timer.due_ms, claim.now_ms)


TIMER_CHANNEL = "lamabot_timers"  # migration 0027: every commit that sets a timer tells it


class TimerStore:
    """The due timers: the sweep's queries and the reminder's claim."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def watch(self, on_due: Callable[[int], None]) -> Listening | None:
        """Tell `on_due(due_ms)` of every timer a process commits, as it commits it
        (PostgreSQL's LISTEN/NOTIFY, migration 0027); None on SQLite, or where the listening
        connection cannot be made: the sweep's own period then finds them."""
        return await self._db.listen(TIMER_CHANNEL, lambda payload: on_due(int(payload)))

    async def claim_timer(
        self, game_id: int, seq: int, claim: TimerClaim, then: DueTimer | None
    ) -> bool:
        """Take a due timer that does not move the game (the reminder) and set the next one,
        exactly once: False if another claim, a move or a new timer came first, or another
        transaction holds the row right now."""
        where, params = claim_condition(game_id, seq, claim, self._db.dialect)
        async def claim_it(tx: Transaction) -> bool:
            return await tx.execute(
                f"UPDATE games SET timer_kind = ?, timer_due_ms = ? WHERE {where}",
                (then and then.kind, then and then.due_ms, *params),
            ) == 1
        return await self._db.write(claim_it)

    async def due_games(self, due_by_ms: int, limit: int = 100) -> list[DueGame]:
        """Running games whose timer is due by `due_by_ms`, soonest first: what a sweep looks
        at (a plain read; each is claimed by whoever fires it)."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(_DUE_GAMES, (due_by_ms, limit))
        return [DueGame(row["id"], row["last_seq"],
                        DueTimer(row["timer_kind"], row["timer_due_ms"])) for row in rows]

    async def explain_due_games(self, *, as_if_large: bool = False) -> list[str]:
        """The sweep's query plan (`Transaction.explain`), for tests."""
        async with self._db.read() as tx:
            return await tx.explain(_DUE_GAMES, (0, 100), as_if_large=as_if_large)

    async def next_due_ms(self) -> int | None:
        """When the soonest timer of any running game falls due (None: no timer at all)."""
        async with self._db.read() as tx:
            row = await tx.fetchone(f"SELECT MIN(timer_due_ms) AS due FROM games WHERE {_DUE}")
        return None if row is None or row["due"] is None else int(row["due"])
