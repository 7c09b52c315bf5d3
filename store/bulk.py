"""Bulk-loading finished games, for benchmarks and large fixtures: one transaction, a few
executemany calls, the same rows GameStore.commit_move(finished=...) writes (games, seats,
finished_games, game_results), without a move log, and raises the servers' results versions
(results_versions.py): loaded while a bot runs, they show as another process's games do. Not
used by the bot.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from store.db import Database, Dialect, Transaction
from store.results_versions import RESULTS_VERSIONS_SINCE, results_changed


@dataclass(frozen=True, slots=True)
class BulkSeat:
    user_id: int | None  # None: an AI seat
    display_name: str
    final_score: int
    place: int
    won: bool
    tokens_collected: int
    clean_rounds: int


@dataclass(frozen=True, slots=True)
class BulkGame:
    guild_id: int
    channel_id: int
    variant: str
    target: int
    rounds: int
    finished_at: int
    seats: Sequence[BulkSeat]


async def insert_finished_games(
    db: Database, games: Iterable[BulkGame], *, analyze: bool = False
) -> int:
    """Write finished games in one transaction; returns how many were written.

    `analyze`: gather planner statistics afterwards, as `PRAGMA optimize` on a long-running
    database eventually does (without, the planner sees the freshly loaded tables cold).
    """
    games_rows, seat_rows, finished_rows, result_rows = [], [], [], []
    async with db.transaction() as tx:
        row = await tx.fetchone("SELECT COALESCE(MAX(id), 0) AS last FROM games")
        next_id = (row["last"] if row else 0) + 1
        for game_id, g in enumerate(games, start=next_id):
            started = g.finished_at - 60 * g.rounds
            games_rows.append((game_id, g.guild_id, g.channel_id, g.seats[0].user_id, g.variant,
                               g.target, started, started, g.finished_at, g.finished_at))
            ai_count = sum(s.user_id is None for s in g.seats)
            finished_rows.append((game_id, g.guild_id, g.variant, g.target, g.rounds,
                                  g.finished_at, len(g.seats), len(g.seats) - ai_count,
                                  ai_count))
            for index, s in enumerate(g.seats):
                is_ai = s.user_id is None
                seat_rows.append((game_id, index, s.user_id, s.display_name, int(is_ai),
                                  "normal" if is_ai else None, started))
                vs_ai = ai_count - int(is_ai) > 0
                result_rows.append((game_id, index, g.guild_id, g.variant, g.finished_at,
                                    s.user_id, int(is_ai), s.final_score, s.place, int(s.won),
                                    s.tokens_collected, s.clean_rounds, int(vs_ai)))
        await tx.executemany(
            "INSERT INTO games (id, guild_id, channel_id, host_user_id, variant, target, "
            "turn_timeout_s, ai_delay_s, status, seed, state_json, created_at, started_at, "
            "finished_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 120, 1.5, 'finished', 0, '{}', ?, ?, ?, ?)",
            games_rows,
        )
        if tx.dialect is Dialect.POSTGRESQL and games_rows:
            # Ids given explicitly do not move PostgreSQL's identity sequence (SQLite's
            # AUTOINCREMENT follows the largest id by itself): the next lobby must not reuse one.
            await tx.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), ?)",
                             (games_rows[-1][0],))
        await tx.executemany(
            "INSERT INTO seats (game_id, seat, user_id, display_name, is_ai, ai_level, "
            "joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            seat_rows,
        )
        await tx.executemany(
            "INSERT INTO finished_games (game_id, guild_id, variant, target, rounds, "
            "finished_at, player_count, human_count, ai_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            finished_rows,
        )
        await tx.executemany(
            "INSERT INTO game_results (game_id, seat, guild_id, variant, finished_at, user_id, "
            "is_ai, final_score, place, won, tokens_collected, clean_rounds, vs_ai, left_game) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            result_rows,
        )
        await _results_changed(tx, {row[1] for row in finished_rows})
        if analyze:
            await tx.execute("ANALYZE")
    return len(games_rows)


async def _results_changed(tx: Transaction, guild_ids: set[int]) -> None:
    """The servers' results versions raised, on a schema that has them (tests load games into
    databases migrated to an older step)."""
    if await tx.read_schema_version() >= RESULTS_VERSIONS_SINCE:
        await results_changed(tx, guild_ids)
