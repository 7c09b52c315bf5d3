"""Leaderboards kept a few seconds (hosting/board_cache.py, issue 33): through StatsService on
a real store, with games finished through the game service, and the cache alone for what
only timing shows (one board made at a time, a board made across a finished game).

Results written behind the cache's back (store.bulk, as another process would) show whether a
board was kept or made anew; the clock is the FakeClock, moved by the test."""

from __future__ import annotations

import asyncio

import pytest

from hosting import FakeClock
from hosting.board_cache import KEPT_AT_LEAST_S, TTL_S, BoardCache
from hosting.stats import Period, StatsService
from store import RESULT_SORTS, LeaderboardSort
from store.bulk import BulkGame, BulkSeat, insert_finished_games
from tests.hosting.support import GUILD, OTHER_GUILD, finish_a_game

WINS = LeaderboardSort.WINS
NEWCOMER = 77
RECENTLY = int(FakeClock().now()) - 60  # a minute before the tests' clock starts


@pytest.fixture
async def stats(store, service, clock) -> StatsService:
    stats = StatsService(store, clock, preferences=service.preferences)
    service.add_listener(stats.on_game_update)  # as the bot wires it
    return stats


async def won_behind_its_back(store, guild: int, user: int = NEWCOMER) -> None:
    """A game `user` won, written as another process would: no listener hears of it."""
    seats = [BulkSeat(user, "newcomer", 0, 1, True, 0, 2),
             BulkSeat(user + 1, "other", 30, 2, False, 30, 0)]
    await insert_finished_games(store.db, [BulkGame(guild, guild + 1, "classic", 40, 3,
                                                    RECENTLY, seats)])


def ranked(board) -> set[int]:
    return {row.user_id for row in board.rows}


async def test_a_kept_board_is_reused(store, stats, service):
    await finish_a_game(service, GUILD)
    first = await stats.leaderboard(GUILD, WINS)
    await won_behind_its_back(store, GUILD)
    again = await stats.leaderboard(GUILD, WINS)
    assert again is first and NEWCOMER not in ranked(again)


async def test_every_sort_page_and_asker_of_a_window_ranks_from_its_kept_totals(
        store, stats, service):
    """One aggregation per window (server, variant, period): another sort, page or asker
    of it is ranked from the totals kept; another window is read anew."""
    await finish_a_game(service, GUILD)
    await stats.leaderboard(GUILD, WINS)
    await won_behind_its_back(store, GUILD)
    for sort in (LeaderboardSort.GAMES, LeaderboardSort.AVG_SCORE):
        assert NEWCOMER not in ranked(await stats.leaderboard(GUILD, sort, page=1))
    assert (await stats.leaderboard(GUILD, WINS, user_id=NEWCOMER)).me is None
    assert NEWCOMER in ranked(await stats.leaderboard(GUILD, WINS, variant="classic"))
    mine = await stats.leaderboard(GUILD, WINS, period=Period.WEEK, user_id=NEWCOMER)
    assert mine.me is not None and mine.me.user_id == NEWCOMER


async def test_a_game_finished_in_the_server_makes_its_boards_anew(store, stats, service):
    await finish_a_game(service, GUILD)
    await stats.leaderboard(GUILD, WINS)
    await won_behind_its_back(store, GUILD)
    await finish_a_game(service, GUILD, players=(3, 4))
    board = await stats.leaderboard(GUILD, WINS)
    assert {NEWCOMER, 3, 4} <= ranked(board)


async def test_a_game_finished_in_another_server_leaves_this_ones_boards(
        store, stats, service):
    await finish_a_game(service, GUILD)
    await finish_a_game(service, OTHER_GUILD)
    kept = await stats.leaderboard(GUILD, WINS)
    other = await stats.leaderboard(OTHER_GUILD, WINS)
    await won_behind_its_back(store, GUILD)
    await finish_a_game(service, OTHER_GUILD, players=(5, 6))
    assert await stats.leaderboard(GUILD, WINS) is kept
    assert await stats.leaderboard(OTHER_GUILD, WINS) is not other


async def test_a_board_is_kept_a_few_seconds_at_most(store, stats, service, clock):
    await finish_a_game(service, GUILD)
    await stats.leaderboard(GUILD, WINS)
    await won_behind_its_back(store, GUILD)  # another process's game: nobody here hears
    clock.advance(KEPT_AT_LEAST_S - 0.1)  # each board lasts between the two
    assert NEWCOMER not in ranked(await stats.leaderboard(GUILD, WINS))
    clock.advance(TTL_S - KEPT_AT_LEAST_S + 0.2)
    assert NEWCOMER in ranked(await stats.leaderboard(GUILD, WINS))


async def test_a_forgotten_player_leaves_every_kept_board_at_once(store, stats, service):
    await finish_a_game(service, GUILD)
    await won_behind_its_back(store, GUILD)
    await won_behind_its_back(store, OTHER_GUILD)
    assert NEWCOMER in ranked(await stats.leaderboard(GUILD, WINS))
    assert NEWCOMER in ranked(await stats.leaderboard(OTHER_GUILD, WINS))
    await stats.forget(NEWCOMER)
    assert NEWCOMER not in ranked(await stats.leaderboard(GUILD, WINS))
    assert NEWCOMER not in ranked(await stats.leaderboard(OTHER_GUILD, WINS))


async def test_a_server_with_more_players_than_are_kept_gets_the_same_boards(
        store, stats, service, clock):
    """Its pages come from the database one by one instead of from its kept totals."""
    await finish_a_game(service, GUILD, players=(1, 2, 3))
    for user in (77, 80, 83):
        await won_behind_its_back(store, GUILD, user)
    few = StatsService(store, clock, kept_players=2)
    for sort in RESULT_SORTS:
        for page in (0, 1, 5):
            for user_id in (None, 1, 80):
                kept = await stats.leaderboard(GUILD, sort, page=page, user_id=user_id)
                assert await few.leaderboard(GUILD, sort, page=page, user_id=user_id) == kept
    assert kept.total == 9 and kept.pages == 1


# --- the cache alone ------------------------------------------------------------------------


class Maker:
    """A board made when the test says so, counting how often it was asked to make one."""

    def __init__(self) -> None:
        self.made = 0
        self.go = asyncio.Event()

    async def __call__(self) -> str:
        self.made += 1
        await self.go.wait()
        return f"board {self.made}"


async def test_callers_asking_at_once_wait_for_one_board():
    cache, maker = BoardCache(FakeClock()), Maker()
    callers = [asyncio.create_task(cache.get_or_make(GUILD, "wins", maker)) for _ in range(5)]
    await asyncio.sleep(0)
    maker.go.set()
    assert await asyncio.gather(*callers) == ["board 1"] * 5 and maker.made == 1


async def test_a_board_made_across_a_finished_game_is_not_kept():
    cache, maker = BoardCache(FakeClock()), Maker()
    asked = asyncio.create_task(cache.get_or_make(GUILD, "wins", maker))
    while not maker.made:  # its reads have begun
        await asyncio.sleep(0)
    cache.game_finished(GUILD)  # they may have begun before the game's commit
    maker.go.set()
    assert await asked == "board 1"  # who asked before the game finished gets it
    assert await cache.get_or_make(GUILD, "wins", maker) == "board 2" and len(cache) == 1


async def test_a_caller_who_gives_up_stops_nobody_elses_board():
    cache, maker = BoardCache(FakeClock()), Maker()
    first = asyncio.create_task(cache.get_or_make(GUILD, "wins", maker))
    second = asyncio.create_task(cache.get_or_make(GUILD, "wins", maker))
    await asyncio.sleep(0)
    first.cancel()
    maker.go.set()
    assert await second == "board 1"
    assert await cache.get_or_make(GUILD, "wins", maker) == "board 1"


async def test_a_failed_board_is_not_kept():
    cache, calls = BoardCache(FakeClock()), []

    async def failing() -> str:
        calls.append(1)
        raise RuntimeError("the store is away")

    for _ in range(2):
        with pytest.raises(RuntimeError):
            await cache.get_or_make(GUILD, "wins", failing)
    assert len(calls) == 2 and len(cache) == 0


async def test_only_the_boards_used_last_are_kept():
    cache = BoardCache(FakeClock(), max_weight=2)
    for page in (1, 2, 1, 3):  # page 1 used again: page 2 is the oldest
        await cache.get_or_make(GUILD, page, lambda p=page: asyncio.sleep(0, f"page {p}"))
    made = []

    async def make() -> str:
        made.append(1)
        return "page 2 anew"

    assert await cache.get_or_make(GUILD, 2, make) == "page 2 anew"
    assert await cache.get_or_make(GUILD, 3, make) == "page 3" and made == [1]


async def test_heavy_boards_leave_room_by_their_weight():
    cache = BoardCache(FakeClock(), max_weight=10)
    for page in (1, 2, 3):
        await cache.get_or_make(GUILD, page, lambda p=page: asyncio.sleep(0, f"page {p}"))
    await cache.get_or_make(GUILD, "totals", lambda: asyncio.sleep(0, "many rows"),
                            weight=lambda rows: 8)
    assert len(cache) == 3  # page 1 left to make room: 2 + 8 = 10
    await cache.get_or_make(GUILD, "more", lambda: asyncio.sleep(0, "more rows"),
                            weight=lambda rows: 20)
    assert len(cache) == 1  # heavier than all room there is: kept alone, the rest left


async def test_no_expiry_keeps_nothing():
    cache, maker = BoardCache(FakeClock(), ttl_s=0), Maker()
    maker.go.set()
    assert [await cache.get_or_make(GUILD, "wins", maker) for _ in range(2)] == [
        "board 1", "board 2"]
