"""What a server's web pages read beyond /lama stats (issue 17), and who may see them.

Read-only over finished games (names, opponents, game counts), plus the per-server access row
(migration web_sites): whether the pages are public and the secret key of the private link.
Forgotten users are NULL in game_results and '' in seats, so nothing here can name them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from store.db import Database, Row, Transaction
from store.records import HeadToHead


@dataclass(frozen=True, slots=True)
class SiteAccess:
    guild_id: int
    public: bool  # anyone with the server's id may read its pages
    secret: str  # the key of the private link (always works, public or not)


# One user's name as of their latest finished game here: one arm of player_names' statement.
_NAME_OF = (
    "SELECT CAST(:user{n} AS BIGINT) AS user_id, (SELECT s.display_name FROM game_results r "
    "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
    "WHERE r.guild_id = :guild_id AND r.user_id = :user{n} AND r.kicked = 0 "
    "ORDER BY r.finished_at DESC, r.game_id DESC LIMIT 1) AS name"
)


class SiteStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    # --- access ---------------------------------------------------------------------------

    async def access(self, guild_id: int) -> SiteAccess | None:
        """The server's access row; None before its first link was made (private)."""
        # one statement: with the reads waiting, in one trip (every web page asks it)
        row = await self._db.fetchone(
            "SELECT guild_id, public, secret FROM web_sites WHERE guild_id = ?", (guild_id,))
        return None if row is None else SiteAccess(row[0], bool(row[1]), row[2])

    async def guild_of_secret(self, secret: str) -> int | None:
        row = await self._db.fetchone("SELECT guild_id FROM web_sites WHERE secret = ?", (secret,))
        return None if row is None else int(row[0])

    async def ensure_access(self, guild_id: int, new_secret: str, *, now: int) -> SiteAccess:
        """The server's row, created private with `new_secret` if it has none yet."""
        async def made_or_kept(tx: Transaction) -> Row | None:
            await tx.execute(
                "INSERT INTO web_sites (guild_id, public, secret, updated_at) "
                "VALUES (?, 0, ?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, new_secret, now),
            )
            return await tx.fetchone(
                "SELECT guild_id, public, secret FROM web_sites WHERE guild_id = ?", (guild_id,)
            )
        row = await self._db.write(made_or_kept)
        assert row is not None
        return SiteAccess(row[0], bool(row[1]), row[2])

    async def save_access(self, access: SiteAccess, *, now: int) -> None:
        async def save(tx: Transaction) -> None:
            await tx.execute(
                "INSERT INTO web_sites (guild_id, public, secret, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "public = excluded.public, secret = excluded.secret, "
                "updated_at = excluded.updated_at",
                (access.guild_id, int(access.public), access.secret, now),
            )
        await self._db.write(save)

    # --- reading finished games -----------------------------------------------------------

    async def player_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """Each ranked user's name as of their latest finished game in this server.

        One index look-up per user (results_by_guild_user ends its key with finished_at), all
        in one statement: one trip to the database, not one per name (a page has ten);
        users with no counted finished game here (or forgotten) are left out.
        """
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        sql = " UNION ALL ".join(_NAME_OF.format(n=n) for n in range(len(ids)))
        rows = await self._db.fetchall(
            sql, {"guild_id": guild_id, **{f"user{n}": user for n, user in enumerate(ids)}})
        return {int(row["user_id"]): row["name"] for row in rows if row["name"] is not None}

    async def opponents(self, guild_id: int, user_id: int, *, limit: int) -> list[HeadToHead]:
        """Head-to-head against every other ranked player the user met, most games first."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT b.user_id AS other, COUNT(*) AS games, "
                "SUM(a.won) AS a_wins, SUM(b.won) AS b_wins, "
                "SUM(CASE WHEN a.place < b.place THEN 1 ELSE 0 END) AS a_ahead, "
                "SUM(CASE WHEN b.place < a.place THEN 1 ELSE 0 END) AS b_ahead "
                "FROM game_results a JOIN game_results b "
                "ON b.game_id = a.game_id AND b.seat != a.seat "
                "WHERE a.guild_id = ? AND a.user_id = ? AND b.user_id IS NOT NULL "
                "AND a.kicked = 0 AND b.kicked = 0 "
                "GROUP BY b.user_id ORDER BY games DESC, b.user_id LIMIT ?",
                (guild_id, user_id, limit),
            )
        return [
            HeadToHead(user_id, r["other"], r["games"], r["a_wins"], r["b_wins"],
                       r["a_ahead"], r["b_ahead"])
            for r in rows
        ]

    async def count_finished(self, guild_id: int) -> int:
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT COUNT(*) FROM finished_games WHERE guild_id = ?", (guild_id,)
            )
        return int(row[0]) if row else 0
