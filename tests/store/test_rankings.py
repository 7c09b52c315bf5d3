"""The two rankings agree (store/rankings.py): a page from the database
(`StatsStore.leaderboard_slice`) and the same page ranked in Python from the server's totals
(`player_totals` + `rank`), for every sort, window, page and player, ties included. Both
backends; the games are random but seeded, with small score ranges so that ties abound."""

from __future__ import annotations

import random

import pytest

from store import RESULT_SORTS, LeaderboardSort, StatsStore, rank
from store.bulk import BulkGame, BulkSeat, insert_finished_games

GUILD, OTHER_GUILD = 10, 11
PLAYERS = [100 + n for n in range(14)]
T0 = 1_700_000_000
DAY = 86_400


def random_games(rng: random.Random, count: int, guild: int = GUILD) -> list[BulkGame]:
    games = []
    for n in range(count):
        table = rng.sample(PLAYERS, rng.randint(2, 4))
        if rng.random() < 0.2:
            table[-1] = None  # an AI seat
        scores = [rng.randint(0, 6) for _ in table]
        best = min(scores)
        seats = [BulkSeat(user, f"P{user}", score, 1 + sum(s < score for s in scores),
                          score == best, score + rng.randint(0, 2), rng.randint(0, 1))
                 for user, score in zip(table, scores, strict=True)]
        games.append(BulkGame(guild, guild + 1, rng.choice(["classic", "party"]), 40, 3,
                              T0 + rng.randint(0, 60) * DAY + n, seats))
    return games


@pytest.fixture
async def stats(db) -> StatsStore:
    rng = random.Random(33)
    await insert_finished_games(db, random_games(rng, 160) + random_games(rng, 20, OTHER_GUILD))
    return StatsStore(db)


WINDOWS = [
    (None, None, None),
    ("classic", None, None),
    (None, T0 + 30 * DAY, None),
    ("party", T0 + 10 * DAY, T0 + 40 * DAY),
]


@pytest.mark.parametrize("sort", RESULT_SORTS, ids=str)
async def test_every_page_and_row_ranked_from_totals_is_the_databases(stats, sort):
    for variant, since, until in WINDOWS:
        totals = await stats.player_totals(GUILD, variant, since, until=until)
        for offset in (0, 3, 6, 12, 40):
            for user_id in (None, *PLAYERS[:5], 999):
                expected = await stats.leaderboard_slice(
                    GUILD, sort, variant, since, until=until, limit=3, offset=offset,
                    user_id=user_id)
                assert rank(totals, sort, limit=3, offset=offset, user_id=user_id) == expected
    assert (await stats.leaderboard_slice(GUILD, sort)).total > 6  # pages were met


@pytest.mark.parametrize("sort", [LeaderboardSort.WINS, LeaderboardSort.CLEAN_ROUNDS])
async def test_the_games_hold_ties(stats, sort):
    """So the agreement above covers RANK()'s shared places."""
    for variant, since, until in WINDOWS:
        board = await stats.leaderboard_slice(GUILD, sort, variant, since, until=until,
                                              limit=100)
        ranks = [row.rank for row in board.rows]
        if len(set(ranks)) < len(ranks):
            return
    pytest.fail("no tie in any window")


async def test_totals_read_at_most_what_was_asked(stats):
    everyone = await stats.player_totals(GUILD)
    assert len(everyone) == len(PLAYERS)
    assert len(await stats.player_totals(GUILD, most=5)) == 5
    assert {t.user_id for t in everyone} == set(PLAYERS)
