"""Skill ratings in the database: the live update, the rating leaderboard, a player's rating,
and writing back a rerate. The computation is RatingBook's (store/rating_book.py)."""

from __future__ import annotations

from collections.abc import Sequence

from store.db import Database, Row, Transaction
from store.rating_book import RatingBook, RatingState, SeatChange, rated_seats
from store.rating_records import (
    PROVISIONAL_GAMES,
    PlayerKey,
    PlayerRating,
    RatingChange,
    RatingRow,
    RatingRules,
    Skill,
    StoredSeat,
)
from store.records import FinishedGame
from store.results_versions import results_changed
from store.seasons import RATINGS_LOCK, sync_season

RECENT_GAMES = 10  # /lama stats: the rating's change over this many games


def _state(row: Row) -> RatingState:
    return RatingState(
        PlayerKey(row["user_id"], row["ai_level"]), row["season"],
        Skill(row["mu"], row["sigma"]), row["shown"], row["games"], row["wins"],
        row["career_games"], row["best_shown"], row["updated_at"],
    )


def _change(row: Row) -> RatingChange:
    return RatingChange(row["game_id"], row["seat"], row["user_id"], row["ai_level"],
                        row["season"], row["shown_before"], row["shown_after"],
                        row["career_games"])


async def _latest_state(
    tx: Transaction, guild_id: int, player: PlayerKey
) -> RatingState | None:
    column, value = (
        ("user_id", player.user_id) if player.user_id is not None
        else ("ai_level", player.ai_level)
    )
    row = await tx.fetchone(
        f"SELECT * FROM ratings WHERE guild_id = ? AND {column} = ? "
        "ORDER BY season DESC LIMIT 1",
        (guild_id, value),
    )
    return None if row is None else _state(row)


async def _save_states(tx: Transaction, guild_id: int, states: Sequence[RatingState]) -> None:
    # Two statements, because a partial unique index is only an upsert target with its
    # own WHERE, and humans and AIs have one each.
    for column in ("user_id", "ai_level"):
        rows = [s for s in states if getattr(s.player, column) is not None]
        await tx.executemany(
            "INSERT INTO ratings (guild_id, season, user_id, ai_level, mu, sigma, shown, games, "
            "wins, career_games, best_shown, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            f"ON CONFLICT (guild_id, season, {column}) WHERE {column} IS NOT NULL DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, shown = excluded.shown, "
            "games = excluded.games, wins = excluded.wins, "
            "career_games = excluded.career_games, best_shown = excluded.best_shown, "
            "updated_at = excluded.updated_at",
            [(guild_id, s.season, s.player.user_id, s.player.ai_level, s.skill.mu,
              s.skill.sigma, s.shown, s.games, s.wins, s.career_games, s.best_shown,
              s.updated_at) for s in rows],
        )


async def _save_changes(tx: Transaction, guild_id: int, changes: Sequence[SeatChange]) -> None:
    await tx.executemany(
        "INSERT INTO rating_changes (game_id, seat, guild_id, season, finished_at, user_id, "
        "ai_level, rank, mu_before, sigma_before, mu_after, sigma_after, shown_before, "
        "shown_after, career_games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(c.change.game_id, c.change.seat, guild_id, c.change.season, c.finished_at,
          c.change.user_id, c.change.ai_level, c.rank, c.before.mu, c.before.sigma,
          c.after.mu, c.after.sigma, c.change.shown_before, c.change.shown_after,
          c.change.career_games) for c in changes],
    )


async def rate_stored_game(
    tx: Transaction, rules: RatingRules, game: Row, finished: FinishedGame, now: int
) -> None:
    """Rate a game whose results were just written (GameStore.commit_move), in the same
    transaction: its seats say who is rated, `finished` the places."""
    rows = await tx.fetchall("SELECT * FROM seats WHERE game_id = ?", (game["id"],))
    by_seat = {row["seat"]: row for row in rows}
    seats = [
        StoredSeat(game["id"], r.seat, by_seat[r.seat]["user_id"], bool(by_seat[r.seat]["is_ai"]),
                   by_seat[r.seat]["ai_level"], r.place, r.won, bool(by_seat[r.seat]["has_left"]),
                   bool(by_seat[r.seat]["kicked"]))
        for r in finished.results
    ]
    await rate_finished_game(tx, rules, game["guild_id"], game["id"], now, seats)


async def rate_finished_game(
    tx: Transaction, rules: RatingRules, guild_id: int, game_id: int, now: int,
    seats: Sequence[StoredSeat],
) -> None:
    """Rate a game whose results were just written, in the same transaction."""
    season = await sync_season(tx, rules, guild_id, now)
    states = []
    for player in {r.player for r in rated_seats(seats) if not r.player.is_anonymous}:
        state = await _latest_state(tx, guild_id, player)
        if state is not None:
            states.append(state)
    book = RatingBook(rules, states)
    changes = book.apply(game_id, season.number, now, seats)
    await _save_states(tx, guild_id, list(book.changed.values()))
    await _save_changes(tx, guild_id, changes)


class RatingStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def changes_of_game(self, game_id: int) -> list[RatingChange]:
        """Every seat's rating change in a finished game, by seat (empty if unrated)."""
        rows = await self._db.fetchall(
            "SELECT * FROM rating_changes WHERE game_id = ? ORDER BY seat", (game_id,))
        return [_change(row) for row in rows]

    async def has_ratings(self, guild_id: int, season: int) -> bool:
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT 1 FROM ratings WHERE guild_id = ? AND season = ? "
                "AND user_id IS NOT NULL LIMIT 1",
                (guild_id, season),
            )
        return row is not None

    async def leaderboard(
        self, guild_id: int, season: int, *, limit: int = 10, offset: int = 0,
        user_id: int | None = None,
    ) -> tuple[list[RatingRow], int, RatingRow | None]:
        """One page of a season's human ranking, how many are ranked, and the user's row.

        Each read walks the covering index in rating order: a page costs its own rows, a
        rank one index range count, whatever the number of players.
        """
        params = {"guild_id": guild_id, "season": season, "limit": limit, "offset": offset,
                  "user_id": user_id}
        async with self._db.read() as tx:
            rows = await tx.fetchall(f"{_PAGE} LIMIT :limit OFFSET :offset", params)
            count = await tx.fetchone(f"SELECT COUNT(*) AS n FROM ratings r WHERE {_RANKED}",
                                      params)
            mine = await tx.fetchall(f"{_RANKED_ROWS} AND r.user_id = :user_id", params)
        me = _rating_row(mine[0]) if mine else None
        return [_rating_row(r) for r in rows], count["n"] if count else 0, me

    async def explain_leaderboard(
        self, guild_id: int, season: int, *, as_if_large: bool = False
    ) -> list[str]:
        """The plan of a rating leaderboard page (`Transaction.explain`): tests, benchmarks."""
        async with self._db.read() as tx:
            return await tx.explain(f"{_PAGE} LIMIT 10", {"guild_id": guild_id, "season": season},
                                    as_if_large=as_if_large)

    async def top(self, guild_id: int, season: int, count: int = 3) -> list[RatingRow]:
        page, _, _ = await self.leaderboard(guild_id, season, limit=count)
        return page

    async def player_rating(
        self, guild_id: int, user_id: int, season: int
    ) -> PlayerRating | None:
        """The player's rating this season with its recent change and best; None if unrated."""
        key = {"guild_id": guild_id, "user_id": user_id, "season": season}
        async with self._db.read() as tx:
            row = await tx.fetchone(
                "SELECT * FROM ratings WHERE guild_id = :guild_id AND season = :season "
                "AND user_id = :user_id", key,
            )
            if row is None:
                return None
            recent = await tx.fetchall(
                "SELECT shown_before FROM rating_changes WHERE guild_id = :guild_id "
                "AND user_id = :user_id AND season = :season "
                f"ORDER BY finished_at DESC, game_id DESC LIMIT {RECENT_GAMES}", key,
            )
            best = await tx.fetchone(
                "SELECT MAX(shown_after) AS best FROM rating_changes "
                "WHERE guild_id = :guild_id AND user_id = :user_id", key,
            )
            rank = await tx.fetchone(
                "SELECT COUNT(*) + 1 AS rank FROM ratings WHERE guild_id = :guild_id "
                "AND season = :season AND user_id IS NOT NULL AND shown > :shown",
                {**key, "shown": row["shown"]},
            )
        start = recent[-1]["shown_before"] if recent else row["shown"]
        best_reached = best["best"] if best and best["best"] is not None else row["shown"]
        return PlayerRating(
            season=season, rating=row["shown"],
            provisional=row["career_games"] < PROVISIONAL_GAMES, games=row["games"],
            change_recent=row["shown"] - start, recent_games=len(recent),
            best=max(best_reached, row["shown"]),
            rank=rank["rank"] if rank else None,
        )

    # --- rerate ---------------------------------------------------------------------------

    async def rated_seats(self, guild_id: int) -> list[tuple[int, int, list[StoredSeat]]]:
        """Every finished game of the server as (game_id, finished_at, seats), in the order
        they were rated: by finishing time, then by the order their changes were written (two
        games can end in one second and share an AI identity), unrated ones by id."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT r.game_id, r.finished_at, r.seat, r.user_id, r.is_ai, s.ai_level, "
                "r.place, r.won, r.left_game, r.kicked, "
                "(SELECT MIN(c.rowid) FROM rating_changes c WHERE c.game_id = r.game_id) "
                "AS rated_order FROM game_results r "
                "JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
                "WHERE r.guild_id = ? ORDER BY r.finished_at, rated_order, r.game_id, r.seat",
                (guild_id,),
            )
        games: list[tuple[int, int, list[StoredSeat]]] = []
        for row in rows:
            if not games or games[-1][0] != row["game_id"]:
                games.append((row["game_id"], row["finished_at"], []))
            games[-1][2].append(StoredSeat(
                row["game_id"], row["seat"], row["user_id"], bool(row["is_ai"]),
                row["ai_level"], row["place"], bool(row["won"]), bool(row["left_game"]),
                bool(row["kicked"]),
            ))
        return games

    async def guilds_with_unrated_games(self) -> list[int]:
        """Servers with games stored before ratings existed: their oldest finished game has no
        rating changes. (Every game finished since is rated in the transaction that stores it,
        and a rerate rates them all, so unrated games are always a server's oldest; asking
        only about the oldest is one index probe per server, not one per game.) A game with
        a kicked player is passed over: a kick can leave nobody to rate it for, and games from
        before ratings had no kicks stored."""
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT p.guild_id FROM (SELECT g.guild_id, ("
                "SELECT f.game_id FROM finished_games f WHERE f.guild_id = g.guild_id "
                "AND NOT EXISTS (SELECT 1 FROM game_results k "
                "WHERE k.game_id = f.game_id AND k.kicked = 1) "
                "ORDER BY f.finished_at, f.game_id LIMIT 1) AS oldest "
                "FROM (SELECT DISTINCT guild_id FROM finished_games) g) p "
                "WHERE p.oldest IS NOT NULL AND NOT EXISTS "
                "(SELECT 1 FROM rating_changes c WHERE c.game_id = p.oldest) ORDER BY p.guild_id"
            )
        return [row["guild_id"] for row in rows]

    async def rated_guilds(self) -> list[int]:
        async with self._db.read() as tx:
            rows = await tx.fetchall(
                "SELECT DISTINCT guild_id FROM finished_games ORDER BY guild_id"
            )
        return [row["guild_id"] for row in rows]

    async def replace_ratings(
        self, guild_id: int, states: Sequence[RatingState], changes: Sequence[SeatChange]
    ) -> None:
        """A rerate's result replaces every rating and change of the server, at once."""
        async def replace(tx: Transaction) -> None:
            await tx.lock(RATINGS_LOCK, guild_id)
            await tx.execute("DELETE FROM rating_changes WHERE guild_id = ?", (guild_id,))
            await tx.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            await _save_states(tx, guild_id, states)
            await _save_changes(tx, guild_id, changes)
            await results_changed(tx, [guild_id])
        await self._db.write(replace)


async def forget_ratings(tx: Transaction, user_id: int) -> set[int]:
    """Inside StatsStore.forget_user's transaction: their ratings go, changes anonymised.
    Returns the servers whose rows changed."""
    rows = await tx.fetchall("DELETE FROM ratings WHERE user_id = ? RETURNING guild_id",
                             (user_id,))
    rows += await tx.fetchall(
        "UPDATE rating_changes SET user_id = NULL WHERE user_id = ? RETURNING guild_id",
        (user_id,))
    return {row["guild_id"] for row in rows}


# A season's ranked humans (the leaderboard index's own condition), each with its rank:
# one more than the number rated strictly higher, so equal ratings share a rank.
_RANKED = "r.guild_id = :guild_id AND r.season = :season AND r.user_id IS NOT NULL"
_RANKED_ROWS = f"""
    SELECT r.user_id, r.shown, r.games, r.wins, r.career_games,
           1 + (SELECT COUNT(*) FROM ratings h WHERE h.guild_id = r.guild_id
                AND h.season = r.season AND h.user_id IS NOT NULL AND h.shown > r.shown) AS rank
    FROM ratings r WHERE {_RANKED}
"""
_PAGE = f"{_RANKED_ROWS} ORDER BY r.shown DESC, r.games, r.user_id"


def _rating_row(row: Row) -> RatingRow:
    return RatingRow(row["rank"], row["user_id"], row["shown"], row["games"], row["wins"],
                     row["career_games"])
