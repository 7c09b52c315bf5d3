"""Helpers the store's tests share: a lobby, a running game, a move, results, a migrated
database, a rating snapshot."""

from __future__ import annotations

from datetime import UTC, datetime

from store import (
    Actor,
    FinishedGame,
    NewSeat,
    SeatResult,
    Store,
    load_migrations,
    open_database,
)
from store.db import connect

GUILD, CHANNEL, HOST, GUEST = 10, 20, 100, 200
T0 = 1_700_000_000


async def lobby(games, channel=CHANNEL, guild=GUILD, seats=None):
    return await games.create_lobby(
        guild_id=guild, channel_id=channel, host_user_id=HOST, variant="classic", target=40,
        turn_timeout_s=120, ai_delay_s=1.5, now=T0,
        seats=seats if seats is not None else [NewSeat.human(HOST, "Host")],
    )


async def running(games, channel=CHANNEL, seats=None):
    seats = seats or [NewSeat.human(HOST, "Host"), NewSeat.human(GUEST, "Guest")]
    game = await lobby(games, channel=channel, seats=seats)
    return await games.start_game(game.id, seed=42, state={"round": 1}, now=T0 + 10)


async def move(games, game_id, seq, *, seat=0, actor=Actor.HUMAN, finished=None):
    return await games.commit_move(
        game_id, seq, seat, {"play": seq}, actor, {"after": seq}, T0 + 100 + seq,
        round_number=1, finished=finished,
    )


def all_results(places_won):
    return FinishedGame(rounds=3, results=tuple(
        SeatResult(seat=i, final_score=10 * i, place=p, won=w, tokens_collected=10 * i,
                   clean_rounds=1)
        for i, (p, w) in enumerate(places_won)
    ))


async def migrated(location, count: int | None = None):
    """The database at `location` migrated by its dialect's first `count` steps."""
    probe = await connect(location)
    steps = load_migrations(probe.dialect)
    await probe.close()
    return await open_database(location, migrations=steps[:count])


def ts(*parts: int) -> int:
    return int(datetime(*parts, tzinfo=UTC).timestamp())


async def snapshot(store: Store) -> tuple[list, list]:
    async with store.db.read() as tx:
        ratings = await tx.fetchall(
            "SELECT guild_id, season, user_id, ai_level, mu, sigma, shown, games, wins, "
            "career_games, best_shown, updated_at FROM ratings "
            "ORDER BY guild_id, season, user_id, ai_level")
        changes = await tx.fetchall(
            "SELECT * FROM rating_changes ORDER BY game_id, seat")
    # Without PostgreSQL's explicit rowid (SQLite's is implicit): a rerate writes new rows.
    return [tuple(r) for r in ratings], [
        tuple(r[key] for key in r.keys() if key != "rowid")  # noqa: SIM118 (rows iterate values)
        for r in changes]

