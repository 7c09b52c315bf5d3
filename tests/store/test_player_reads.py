"""A player's statistics read only that player's entries of one index, in its order (issue 33:
under a flood of players' pages these statements run all the time; one that scans the
server's results or sorts a player's games again is a core's worth of reads).

SQLite's plans only: SQLite picks an index by the statement's shape, so a test's few rows show
the plan of 100,000 games; PostgreSQL picks by cost and statistics, and at a test's size reads
a few rows any way (the statements' answers are tested on both, tests/store/test_stats.py)."""

from __future__ import annotations

import pytest

from store import open_database
from store.bulk import BulkGame, BulkSeat, insert_finished_games
from store.player_reads import HEAD_TO_HEAD, LAST_GAMES, STATEMENTS, STREAKS
from tests.store.support import T0

GUILD, OTHER_GUILD = 10, 11
A, B = 1, 2
KEY = {"guild_id": GUILD, "user_id": A}


@pytest.fixture
async def played(tmp_path):
    """Games of A and B in every variant, in two servers, on SQLite."""
    db = await open_database(tmp_path / "lama.sqlite3")
    games = [BulkGame(guild, guild * 100, variant, 40, 3, T0 + n,
                      [BulkSeat(A, "A", n % 30, 1 + n % 2, n % 2 == 0, n % 5, n % 3),
                       BulkSeat(B, "B", 20, 2 - n % 2, n % 2 == 1, 0, 0)])
             for n, (guild, variant) in enumerate(
                 (guild, variant) for guild in (GUILD, OTHER_GUILD)
                 for variant in ("classic", "party", "komarami") for _ in range(20))]
    await insert_finished_games(db, games)
    yield db
    await db.close()


async def plan(db, sql: str) -> list[str]:
    async with db.read() as tx:
        return await tx.explain(sql, KEY)


@pytest.mark.parametrize("name", sorted(STATEMENTS))
async def test_a_player_statement_reads_only_their_entries_of_the_player_index(played, name):
    lines = await plan(played, STATEMENTS[name])
    reading = [line for line in lines if "game_results" in line]
    covering = ("SEARCH game_results USING COVERING INDEX results_by_guild_user "
                "(guild_id=? AND user_id=?)")
    assert reading and all(line == covering for line in reading), lines


@pytest.mark.parametrize("sql", [STREAKS, LAST_GAMES], ids=["streaks", "last games"])
async def test_a_player_s_games_come_in_finishing_order_from_the_index(played, sql):
    lines = await plan(played, sql)
    assert not any("ORDER BY" in line for line in lines), lines


async def test_a_head_to_head_seeks_the_other_player_s_row_of_each_shared_game(played):
    """Joined by game id alone, SQLite walked one player's games and scanned all of the
    other's entries for each: 37 s for the two busiest players of 100,000 games."""
    async with played.read() as tx:
        lines = await tx.explain(HEAD_TO_HEAD, {"guild_id": GUILD, "a": A, "b": B})
    assert lines == [
        "SEARCH a USING COVERING INDEX results_by_guild_user (guild_id=? AND user_id=?)",
        "SEARCH b USING COVERING INDEX results_by_guild_user "
        "(guild_id=? AND user_id=? AND finished_at=? AND game_id=?)",
    ], lines
