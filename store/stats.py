"""Leaderboards and player statistics over finished games (issue 5).

Every ranking is one SQL query over a covering index of game_results (see
migrations/0002_stats_and_settings.sql); nothing loads all games into Python. Rows are written
by GameStore.commit_move(..., finished=...), in the transaction that ends the game.
"""

from __future__ import annotations

from typing import Any

from store import player_reads
from store.db import Database, Transaction
from store.rankings import ORDERS, LeaderboardSlice, PlayerTotals, min_games
from store.ratings import forget_ratings
from store.records import (
    GameSummary,
    HeadToHead,
    LeaderboardRow,
    LeaderboardSort,
    PlayerResult,
    PlayerStats,
    RecentResult,
)
from store.results_versions import READ as READ_RESULTS_VERSION
from store.results_versions import results_changed


def _window(guild_id: int, variant: str | None, since: int | None, until: int | None
            ) -> tuple[str, dict[str, Any]]:
    """The WHERE of a ranking's results, and its parameters.

    Assembled from fixed fragments (never `? IS NULL OR …`, which would hide the variant and
    period from the planner and cost the index).
    """
    # The indexes' partial condition: a kicked player's game counts for them no more in the
    # statistics than in the ratings (migration 0025).
    where = ["guild_id = :guild_id", "user_id IS NOT NULL", "kicked = 0"]
    params: dict[str, Any] = {"guild_id": guild_id}
    if variant is not None:
        where.append("variant = :variant")
        params["variant"] = variant
    if since is not None:
        where.append("finished_at >= :since")
        params["since"] = since
    if until is not None:
        where.append("finished_at < :until")
        params["until"] = until
    return " AND ".join(where), params


_TOTALS = """
    SELECT user_id,
           COUNT(*) AS games,
           SUM(won) AS wins,
           SUM(final_score) AS score_sum,
           SUM(tokens_collected) AS tokens,
           SUM(clean_rounds) AS clean_rounds
    FROM game_results
    WHERE {where}
    GROUP BY user_id
"""


def _ranking(
    guild_id: int, sort: LeaderboardSort, variant: str | None, since: int | None,
    until: int | None = None,
) -> tuple[str, dict[str, Any]]:
    """SQL for every ranked player with rank and page position, and its parameters."""
    if LeaderboardSort(sort) not in ORDERS:
        raise ValueError(f"{sort} is not ranked from game results (see RatingStore)")
    order = ORDERS[LeaderboardSort(sort)]
    where, params = _window(guild_id, variant, since, until)
    params["min_games"] = min_games(LeaderboardSort(sort))
    sql = f"""
        WITH per_player AS (
            {_TOTALS.format(where=where)}
            HAVING COUNT(*) >= :min_games
        ), rated AS (
            SELECT *,
                   CAST(wins AS DOUBLE PRECISION) / games AS win_rate,
                   CAST(score_sum AS DOUBLE PRECISION) / games AS avg_score,
                   CAST(tokens AS DOUBLE PRECISION) / games AS tokens_per_game
            FROM per_player
        )
        SELECT *,
               RANK() OVER (ORDER BY {order.metric_sql}) AS rank,
               ROW_NUMBER() OVER (ORDER BY {order.metric_sql}, {order.then_sql}, user_id)
                   AS position
        FROM rated
    """
    return sql, params


def _row(row: Any) -> LeaderboardRow:
    return LeaderboardRow(
        rank=row["rank"],
        user_id=row["user_id"],
        games=row["games"],
        wins=row["wins"],
        win_rate=row["win_rate"],
        avg_score=row["avg_score"],
        tokens=row["tokens"],
        tokens_per_game=row["tokens_per_game"],
        clean_rounds=row["clean_rounds"],
    )


class StatsStore:
    """Read-side of finished games, plus forgetting a user."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # --- leaderboards ---------------------------------------------------------------------

    async def leaderboard_slice(
        self,
        guild_id: int,
        sort: LeaderboardSort,
        variant: str | None = None,
        since: int | None = None,
        *,
        until: int | None = None,
        limit: int = 10,
        offset: int = 0,
        user_id: int | None = None,
    ) -> LeaderboardSlice:
        """A page, the count and the user's row from one ranking, computed once.

        Separate queries for the page, the count and the user's rank would aggregate the
        server's results three times; the aggregation is the whole cost (100,000 games:
        ~150 ms each). The first row always comes along so the count is known even for a
        page past the end.
        `until` (unix seconds, exclusive) ends the period, for a past season.
        """
        sql, params = _ranking(guild_id, sort, variant, since, until)
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT * FROM (SELECT *, COUNT(*) OVER () AS total "
                f"FROM ({sql}) AS ranked) AS counted "
                "WHERE (position > :offset AND position <= :offset + :limit) "
                "OR position = 1 OR user_id = :user_id ORDER BY position",
                {**params, "limit": limit, "offset": offset, "user_id": user_id},
            )
        total = rows[0]["total"] if rows else 0
        page = tuple(_row(r) for r in rows if offset < r["position"] <= offset + limit)
        me = next((_row(r) for r in rows if user_id is not None and r["user_id"] == user_id),
                  None)
        return LeaderboardSlice(page, total, me)

    async def player_totals(
        self, guild_id: int, variant: str | None = None, since: int | None = None, *,
        until: int | None = None, most: int | None = None,
    ) -> list[PlayerTotals]:
        """Every player's totals in the window, in no order: what every sort of its
        leaderboard ranks (rankings.py `rank`), from one aggregation. `most`: read no more
        than that many players (a caller that would not keep more knows by one more)."""
        where, params = _window(guild_id, variant, since, until)
        sql = _TOTALS.format(where=where)
        if most is not None:
            sql += " LIMIT :most"
            params["most"] = most
        rows = await self._db.fetchall(sql, params)
        return [PlayerTotals(r["user_id"], r["games"], r["wins"], r["score_sum"], r["tokens"],
                             r["clean_rounds"]) for r in rows]

    async def explain_leaderboard(
        self,
        guild_id: int,
        sort: LeaderboardSort,
        variant: str | None = None,
        since: int | None = None,
        *,
        as_if_large: bool = False,
    ) -> list[str]:
        """The query plan of a leaderboard page (`Transaction.explain`): for tests and
        benchmarks."""
        sql, params = _ranking(guild_id, sort, variant, since)
        async with self._db.read() as tx:
            return await tx.explain(f"{sql} ORDER BY position LIMIT 10", params,
                                    as_if_large=as_if_large)

    async def results_version(self, guild_id: int) -> int:
        """The server's results version (results_versions.py): it changes with every write,
        by any process, of what the server's leaderboards show. One primary-key look-up."""
        row = await self._db.fetchone(READ_RESULTS_VERSION, (guild_id,))
        return 0 if row is None else int(row[0])

    # --- one player -----------------------------------------------------------------------

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """Everything /lama stats shows about one player in one server (zeros if none)."""
        key = {"guild_id": guild_id, "user_id": user_id}
        async with self._db.read() as tx:
            totals = await tx.fetchone(player_reads.TOTALS, key)
            favourite = await tx.fetchone(player_reads.FAVOURITE_VARIANT, key)
            streaks = await tx.fetchone(player_reads.STREAKS, key)
            recent = await tx.fetchall(player_reads.LAST_GAMES, key)
        assert totals is not None and streaks is not None
        games = totals["games"]
        return PlayerStats(
            user_id=user_id,
            games=games,
            wins=totals["wins"],
            win_rate=totals["wins"] / games if games else None,
            avg_score=totals["avg_score"],
            best_score=totals["best_score"],
            tokens=totals["tokens"],
            clean_rounds=totals["clean_rounds"],
            favourite_variant=favourite["variant"] if favourite else None,
            current_streak=streaks["current"],
            longest_streak=streaks["longest"],
            games_vs_ai=totals["games_vs_ai"],
            last_games=tuple(
                RecentResult(r["game_id"], r["finished_at"], r["variant"], r["place"],
                             r["final_score"], bool(r["won"]))
                for r in recent
            ),
        )

    async def head_to_head(self, guild_id: int, user_a: int, user_b: int) -> HeadToHead:
        """How a and b fared in the finished games they both played in this server (but for
        a game either of them was kicked from: it counts for neither)."""
        async with self._db.read() as tx:
            row = await tx.fetchone(player_reads.HEAD_TO_HEAD,
                                    {"guild_id": guild_id, "a": user_a, "b": user_b})
        assert row is not None
        return HeadToHead(user_a, user_b, row["games"], row["a_wins"], row["b_wins"],
                          row["a_ahead"], row["b_ahead"])

    # --- the server -----------------------------------------------------------------------

    async def recent_games(
        self, guild_id: int, limit: int = 10, offset: int = 0
    ) -> list[GameSummary]:
        """The server's finished games, newest first, with every seat's result."""
        async with self._db.read() as tx:
            games = await tx.fetchall(
                "SELECT game_id, variant, target, rounds, finished_at FROM finished_games "
                "WHERE guild_id = ? ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
            ids = [g["game_id"] for g in games]
            results = await tx.fetchall(
                "SELECT r.game_id, r.seat, r.user_id, s.display_name, r.is_ai, r.place, "
                "r.final_score, r.won, s.ai_number FROM game_results r "
                "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
                f"WHERE r.game_id IN ({', '.join('?' * len(ids))}) ORDER BY r.game_id, r.seat",
                ids,
            ) if ids else []
        players: dict[int, list[PlayerResult]] = {}
        for r in results:
            players.setdefault(r["game_id"], []).append(
                PlayerResult(r["seat"], r["user_id"], r["display_name"], bool(r["is_ai"]),
                             r["place"], r["final_score"], bool(r["won"]), r["ai_number"])
            )
        return [
            GameSummary(g["game_id"], g["variant"], g["target"], g["rounds"], g["finished_at"],
                        tuple(players.get(g["game_id"], ())))
            for g in games
        ]

    # --- privacy --------------------------------------------------------------------------

    async def forget_user(self, user_id: int) -> int:
        """Erase a user's statistics in every server; returns how many results it touched.

        Their result rows are anonymised (user_id NULL), not deleted: the other players'
        games keep their places, shared wins and head-to-heads, while nothing links the
        forgotten rows to the user any more, so they are never ranked again. Their name in
        seats of finished or cancelled games and their hosting of those games are erased
        too, and their language choice is dropped. Lobby and running games are left alone:
        the game in progress still needs to know whose seat it is.
        """
        async def forget(tx: Transaction) -> int:
            # the servers whose boards showed them: those of the rows these statements change
            # (RETURNING: a result committed while this runs is anonymised by the statement
            # that sees it, and its server raised with it; a read first would miss it)
            anonymised = await tx.fetchall(
                "UPDATE game_results SET user_id = NULL WHERE user_id = ? RETURNING guild_id",
                (user_id,))
            played = {row["guild_id"] for row in anonymised}
            ended = "SELECT id FROM games WHERE status IN ('finished', 'cancelled')"
            await tx.execute(
                f"UPDATE seats SET user_id = NULL, display_name = '', dm_channel_id = NULL "
                f"WHERE user_id = ? AND game_id IN ({ended})",
                (user_id,),
            )
            await tx.execute(
                "UPDATE games SET host_user_id = NULL "
                "WHERE host_user_id = ? AND status IN ('finished', 'cancelled')",
                (user_id,),
            )
            await tx.execute("DELETE FROM user_locales WHERE user_id = ?", (user_id,))
            played |= await forget_ratings(tx, user_id)
            await tx.execute("DELETE FROM user_notify WHERE user_id = ?", (user_id,))
            await results_changed(tx, played)  # last
            return len(anonymised)
        return await self._db.write(forget)
