"""Leaderboards kept past their few seconds while the server's results version in the store
stays the same (hosting/board_cache.py, issue 33): through StatsService on a real store, with
another process's writes made through a second store on the same database, and the cache
alone with a counted version for what only timing shows (one read for boards due together,
the hard cap, the period's end).

The clock is the FakeClock, moved by the test; a board kept is the same object, one made anew
another."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from hosting import FakeClock, GameService
from hosting.board_cache import (
    KEPT_AT_LEAST_S,
    RENEWED_UP_TO_S,
    TTL_S,
    VERSION_REUSED_S,
    BoardCache,
)
from hosting.ratings import RULES
from hosting.rerating import rerate_guild
from hosting.stats import Period, StatsService
from store import LeaderboardSort, Store
from tests.hosting.support import GUILD, OTHER_GUILD, finish_a_game

WINS, RATING = LeaderboardSort.WINS, LeaderboardSort.RATING
PAST_TTL = TTL_S + 0.01


@pytest.fixture
async def rated(db_location):
    """Two processes' stores on one database, rating the games they finish."""
    here = await Store.open(db_location, rules=RULES)
    there = await Store.open(db_location, rules=RULES)
    yield here, there
    await there.close()
    await here.close()


@pytest.fixture
def totals_read(rated, monkeypatch) -> list[int]:
    """Each aggregation of a window's totals in this process (the board's whole cost)."""
    reads: list[int] = []
    stats = rated[0].stats
    real = stats.player_totals

    async def counted(guild_id, *args, **kwargs):
        reads.append(guild_id)
        return await real(guild_id, *args, **kwargs)

    monkeypatch.setattr(stats, "player_totals", counted)
    return reads


def ranked(board) -> set[int]:
    return {row.user_id for row in board.rows}


async def test_a_board_whose_results_did_not_change_is_kept_past_its_time(
        rated, clock, totals_read):
    here, _ = rated
    await finish_a_game(GameService(here, clock), GUILD)
    stats = StatsService(here, clock)
    first = await stats.leaderboard(GUILD, WINS)
    for _ in range(5):
        clock.advance(PAST_TTL)
        assert await stats.leaderboard(GUILD, WINS) is first
    assert totals_read == [GUILD]


async def test_a_game_another_process_finished_shows_within_ttl_of_its_end(rated, clock):
    here, there = rated
    await finish_a_game(GameService(here, clock), GUILD)
    stats = StatsService(here, clock)
    first = await stats.leaderboard(GUILD, WINS)
    clock.advance(PAST_TTL)
    assert await stats.leaderboard(GUILD, WINS) is first  # renewed: nothing changed
    await finish_a_game(GameService(there, clock), GUILD, players=(3, 4))  # nobody here hears
    assert await stats.leaderboard(GUILD, WINS) is first  # within its few seconds yet
    clock.advance(PAST_TTL)
    assert ranked(await stats.leaderboard(GUILD, WINS)) == {1, 2, 3, 4}


async def test_a_game_another_server_finished_leaves_this_ones_boards_renewed(
        rated, clock, totals_read):
    here, there = rated
    await finish_a_game(GameService(here, clock), GUILD)
    stats = StatsService(here, clock)
    first = await stats.leaderboard(GUILD, WINS)
    await finish_a_game(GameService(there, clock), OTHER_GUILD)
    clock.advance(PAST_TTL)
    assert await stats.leaderboard(GUILD, WINS) is first and totals_read == [GUILD]


async def test_a_player_another_process_forgot_leaves_the_boards_at_their_time(rated, clock):
    here, there = rated
    await finish_a_game(GameService(here, clock), GUILD, players=(1, 2))
    await finish_a_game(GameService(here, clock), OTHER_GUILD, players=(2, 3))
    stats = StatsService(here, clock)
    assert ranked(await stats.leaderboard(GUILD, WINS)) == {1, 2}
    assert ranked(await stats.leaderboard(OTHER_GUILD, WINS)) == {2, 3}
    await StatsService(there, clock).forget(2)
    clock.advance(PAST_TTL)
    assert ranked(await stats.leaderboard(GUILD, WINS)) == {1}
    assert ranked(await stats.leaderboard(OTHER_GUILD, WINS)) == {3}


async def test_a_rerate_in_another_process_makes_the_rating_board_anew(rated, clock):
    here, there = rated
    await finish_a_game(GameService(here, clock), GUILD)
    stats = StatsService(here, clock)
    first = await stats.leaderboard(GUILD, RATING)
    assert ranked(first) == {1, 2}
    clock.advance(PAST_TTL)
    assert await stats.leaderboard(GUILD, RATING) is first
    await rerate_guild(there, GUILD, clock=clock)
    clock.advance(PAST_TTL)
    again = await stats.leaderboard(GUILD, RATING)
    assert again is not first and again == first  # the same numbers, read again


async def test_a_this_week_board_is_not_kept_into_the_next_week(rated, clock):
    here, _ = rated
    now = datetime.fromtimestamp(clock.now(), UTC)
    monday = (now - timedelta(days=now.weekday())).replace(hour=0, minute=0, second=0) \
        + timedelta(days=7)
    clock.set(monday.timestamp() - 2)  # Sunday, two seconds to midnight
    await finish_a_game(GameService(here, clock), GUILD)
    stats = StatsService(here, clock)
    assert ranked(await stats.leaderboard(GUILD, WINS, period=Period.WEEK)) == {1, 2}
    clock.advance(2)  # within the board's few seconds, but a new week: nobody played yet
    assert ranked(await stats.leaderboard(GUILD, WINS, period=Period.WEEK)) == set()
    assert ranked(await stats.leaderboard(GUILD, WINS)) == {1, 2}


async def test_a_period_ends_where_the_next_begins(store):
    stats = StatsService(store, FakeClock(datetime(2026, 12, 31, 23, tzinfo=UTC).timestamp()))
    assert stats.period_ends(Period.MONTH) == datetime(2027, 1, 1, tzinfo=UTC).timestamp()
    assert stats.period_ends(Period.WEEK) == datetime(2027, 1, 4, tzinfo=UTC).timestamp()
    assert stats.period_ends(Period.ALL_TIME) is None


# --- the cache alone ------------------------------------------------------------------------


class Store_:
    """A server's version as a store would answer it, counting the reads."""

    def __init__(self) -> None:
        self.version = 0
        self.reads = 0
        self.failing = False

    async def __call__(self, guild_id: int) -> int:
        self.reads += 1
        await asyncio.sleep(0)
        if self.failing:
            raise RuntimeError("the store is away")
        return self.version


class Boards:
    """Boards made by name, counting how often each was made."""

    def __init__(self, cache: BoardCache) -> None:
        self.cache = cache
        self.made: dict[str, int] = {}

    async def ask(self, name: str, changes_at: float | None = None) -> str:
        async def make() -> str:
            self.made[name] = self.made.get(name, 0) + 1
            return f"{name} {self.made[name]}"
        return await self.cache.get_or_make(GUILD, name, make, changes_at=changes_at)


@pytest.fixture
def stored() -> Store_:
    return Store_()


@pytest.fixture
def boards(clock, stored) -> Boards:
    return Boards(BoardCache(clock, stored_version=stored))


NAMES = [f"board {n}" for n in range(20)]


async def test_the_version_is_read_once_for_the_boards_due_together(boards, stored, clock):
    await asyncio.gather(*(boards.ask(name) for name in NAMES))
    assert stored.reads == 1  # before the boards' reads, once for all of them
    clock.advance(PAST_TTL)
    await asyncio.gather(*(boards.ask(name) for name in NAMES[:10]))
    clock.advance(VERSION_REUSED_S / 2)
    for name in NAMES[10:]:
        await boards.ask(name)
    assert stored.reads == 2 and set(boards.made.values()) == {1}


async def test_a_board_is_renewed_as_of_its_versions_read(boards, stored, clock):
    """A change just after the read that renewed a board shows within TTL_S of the read,
    however late the board was asked again."""
    await boards.ask("a")
    await boards.ask("b")
    clock.advance(PAST_TTL)
    await boards.ask("a")  # the version read now renews a
    read_at = clock.now()
    stored.version += 1  # another process's game
    clock.advance(VERSION_REUSED_S * 0.9)
    assert await boards.ask("b") == "b 1"  # renewed by the read before the change
    clock.set(read_at + TTL_S)
    assert await boards.ask("b") == "b 2" and await boards.ask("a") == "a 2"


async def test_a_board_renewed_again_and_again_is_made_anew_within_a_minute(
        boards, stored, clock):
    await boards.ask("a")
    started = clock.now()
    while boards.made["a"] == 1:
        clock.advance(1)
        await boards.ask("a")
    assert 0.8 * RENEWED_UP_TO_S <= clock.now() - started <= RENEWED_UP_TO_S + 1
    assert stored.reads > 2


async def test_a_board_is_never_kept_past_the_end_of_its_period(boards, clock):
    ends = clock.now() + 2
    await boards.ask("week", changes_at=ends)
    clock.advance(1.9)
    assert await boards.ask("week", changes_at=ends) == "week 1"
    clock.advance(0.1)
    assert await boards.ask("week", changes_at=ends + 7 * 86400) == "week 2"


async def test_a_failed_version_read_fails_the_ask_and_is_read_again(boards, stored, clock):
    await boards.ask("a")
    clock.advance(PAST_TTL)
    stored.failing = True
    with pytest.raises(RuntimeError):
        await boards.ask("a")
    stored.failing = False
    assert await boards.ask("a") == "a 1" and stored.reads == 3


async def test_a_game_finished_here_is_not_hidden_by_a_version_read_before_it(
        boards, stored, clock):
    await boards.ask("a")
    clock.advance(PAST_TTL)
    await boards.ask("a")  # renewed: the version was read now
    stored.version += 1  # this process's game, committed ...
    boards.cache.game_finished(GUILD)  # ... and heard
    assert await boards.ask("a") == "a 2"  # made anew, its version read anew
    assert stored.reads == 3
    clock.advance(PAST_TTL)
    assert await boards.ask("a") == "a 2"  # and renewed by it


async def test_a_board_made_of_totals_kept_from_before_a_change_is_not_renewed(
        boards, stored, clock):
    """A board's totals are kept apart (the cache's own entry): remade after another
    process's game while those totals were still kept, the board held the old results, and
    renewed under the new version it showed them for a minute. It is only as fresh as what
    it took, so it is made anew after its first moment, from totals made anew."""
    cache, totals_made = boards.cache, []

    async def totals() -> int:
        totals_made.append(clock.now())
        return len(totals_made)

    async def board() -> str:
        return f"board of totals {await cache.get_or_make(GUILD, 'totals', totals)}"

    # the drawn moments, in the order drawn: the totals' (a minute, 5 s), the board's (4 s)
    drawn = [RENEWED_UP_TO_S, TTL_S, RENEWED_UP_TO_S, KEPT_AT_LEAST_S]
    cache._random.uniform = lambda low, high: drawn.pop(0) if drawn else high
    assert await cache.get_or_make(GUILD, "board", board) == "board of totals 1"
    clock.advance(1.0)
    stored.version += 1  # another process's game
    clock.advance(3.5)  # the board's time is up, not the totals'
    assert await cache.get_or_make(GUILD, "board", board) == "board of totals 1"
    clock.advance(TTL_S + 0.1)
    assert await cache.get_or_make(GUILD, "board", board) == "board of totals 2"
