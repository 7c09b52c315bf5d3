"""Rating seasons: which one is open, rolling over to the next, the final-standings outbox.

A server's open season follows its `season_cadence` setting; `sync_season` (run inside the
transaction that rates a game, and by hosting's season keeper) opens the first season, rolls
an ended one over and moves the open season's end when the cadence changed.
"""

from __future__ import annotations

from store.db import Database, Row, Transaction
from store.rating_records import RatingRules, Season
from store.results_versions import results_changed


def season_of(row: Row) -> Season:
    return Season(row["guild_id"], row["number"], row["cadence"], row["starts_at"],
                  row["ends_at"], row["closed_at"], row["announced_at"])


async def _cadence(tx: Transaction, guild_id: int) -> str:
    row = await tx.fetchone(
        "SELECT season_cadence FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    return "off" if row is None else row["season_cadence"]


RATINGS_LOCK = "ratings"


async def sync_season(tx: Transaction, rules: RatingRules, guild_id: int, now: int) -> Season:
    """The season open at `now`, after opening, rolling over or re-ending it as due.

    Takes the server's "ratings" lock first: every write to its seasons and ratings starts
    here, so two games of one server finishing at once (an AI level is rated in both) are
    rated one after the other, and the first season is opened once."""
    await tx.lock(RATINGS_LOCK, guild_id)
    cadence = await _cadence(tx, guild_id)
    start, end = rules.season_window(cadence, now)
    row = await tx.fetchone(
        "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number DESC LIMIT 1", (guild_id,)
    )
    if row is None:
        return await _open(tx, guild_id, 1, cadence, start, end)
    season = season_of(row)
    if season.ends_at is not None and now >= season.ends_at:
        await tx.execute(
            "UPDATE seasons SET closed_at = ? WHERE guild_id = ? AND number = ?",
            (now, guild_id, season.number),
        )
        return await _open(tx, guild_id, season.number + 1, cadence,
                           max(start, season.ends_at), end)
    if season.ends_at != end or season.cadence != cadence:  # the cadence changed
        await tx.execute(
            "UPDATE seasons SET ends_at = ?, cadence = ? WHERE guild_id = ? AND number = ?",
            (end, cadence, guild_id, season.number),
        )
        season = Season(guild_id, season.number, cadence, season.starts_at, end, None, None)
    return season


async def _open(
    tx: Transaction, guild_id: int, number: int, cadence: str, start: int, end: int | None
) -> Season:
    await tx.execute(
        "INSERT INTO seasons (guild_id, number, cadence, starts_at, ends_at) "
        "VALUES (?, ?, ?, ?, ?)",
        (guild_id, number, cadence, start, end),
    )
    return Season(guild_id, number, cadence, start, end, None, None)


class SeasonStore:
    def __init__(self, db: Database, rules: RatingRules | None) -> None:
        self._db = db
        self._rules = rules

    async def sync(self, guild_id: int, *, now: int) -> Season:
        """Bring the server's open season in line with the clock and its setting."""
        rules = self._rules
        assert rules is not None, "the store was opened without rating rules"

        async def synced(tx: Transaction) -> Season:
            season = await sync_season(tx, rules, guild_id, now)
            await results_changed(tx, [guild_id])  # a board shows the seasons (rare: raised)
            return season
        return await self._db.write(synced)

    async def sync_due(self, *, now: int) -> list[Season]:
        """Roll over every server's season that has ended; returns the seasons now open."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT guild_id FROM seasons WHERE closed_at IS NULL AND ends_at <= ?", (now,)
            )
        return [await self.sync(row["guild_id"], now=now) for row in rows]

    async def next_end(self) -> int | None:
        """When the earliest open season ends (for the keeper's sleep)."""
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT MIN(ends_at) AS at FROM seasons WHERE closed_at IS NULL"
            )
        return None if row is None else row["at"]

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number DESC", (guild_id,)
            )
        return [season_of(row) for row in rows]

    async def current(self, guild_id: int) -> Season | None:
        """The server's newest season (open, unless the keeper has yet to roll it)."""
        seasons = await self.seasons(guild_id)
        return seasons[0] if seasons else None

    async def to_announce(self) -> list[Season]:
        """Closed seasons whose final standings have not been posted yet, oldest first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT * FROM seasons WHERE closed_at IS NOT NULL AND announced_at IS NULL "
                "ORDER BY closed_at, guild_id, number"
            )
        return [season_of(row) for row in rows]

    async def mark_announced(self, guild_id: int, number: int, *, now: int) -> None:
        async def mark(tx: Transaction) -> None:
            await tx.execute(
                "UPDATE seasons SET announced_at = ? WHERE guild_id = ? AND number = ?",
                (now, guild_id, number),
            )
            await results_changed(tx, [guild_id])
        await self._db.write(mark)
