"""Leaderboard pages: which board a request means (sort, period, season) and the rating board.

A rating belongs to a season and covers every variant, so sort:rating takes a season but no
period or variant; the other sorts take a period, or a season as a period (its games only).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from store import LeaderboardRow, LeaderboardSort, RatingRow, Season, Store

from .errors import HostingError, Problem

PAGE_SIZE = 10


class Period(StrEnum):
    """A leaderboard's time window; the values are short because they travel in custom ids."""

    ALL_TIME = "all"
    MONTH = "month"
    WEEK = "week"


# The catalogue's name of each sort and period, the words every interface (/leaderboard, the
# web pages) shows them by; some keys predate the store's enum names. The web pages rank by
# results only (`RESULT_SORT_KEYS`); /leaderboard by the rating too.
RESULT_SORT_KEYS = {
    LeaderboardSort.WINS: "leaderboard.sort.wins",
    LeaderboardSort.WIN_RATE: "leaderboard.sort.win_rate",
    LeaderboardSort.AVG_SCORE: "leaderboard.sort.average_score",
    LeaderboardSort.TOKENS: "leaderboard.sort.tokens",
    LeaderboardSort.CLEAN_ROUNDS: "leaderboard.sort.clean_rounds",
    LeaderboardSort.GAMES: "leaderboard.sort.games",
}
SORT_KEYS = {LeaderboardSort.RATING: "leaderboard.sort.rating", **RESULT_SORT_KEYS}
PERIOD_KEYS = {
    Period.ALL_TIME: "stats.period.all_time",
    Period.MONTH: "stats.period.month",
    Period.WEEK: "stats.period.week",
}


@dataclass(frozen=True)
class LeaderboardPage:
    guild_id: int
    sort: LeaderboardSort
    variant: str | None  # None: every variant
    period: Period
    page: int  # 0-based, clamped to the pages there are
    pages: int  # at least 1, even when nobody is ranked
    total: int  # ranked players
    rows: tuple[LeaderboardRow, ...] | tuple[RatingRow, ...]  # RatingRow for sort:rating
    me: LeaderboardRow | RatingRow | None  # the asker's row wherever it is; None if unranked
    min_games: int  # games a player needs to be ranked on this board
    season: Season | None = None  # the season shown (always set for sort:rating)

    @property
    def me_on_page(self) -> bool:
        return self.me is not None and any(r.user_id == self.me.user_id for r in self.rows)


async def default_sort(store: Store, guild_id: int) -> LeaderboardSort:
    """By rating once the server has rated games, by wins before."""
    current = await store.seasons.current(guild_id)
    return LeaderboardSort.WINS if current is None else LeaderboardSort.RATING


async def chosen_season(
    store: Store, guild_id: int, sort: LeaderboardSort, variant: str | None, period: Period,
    season: int | None,
) -> Season | None:
    """The season a board shows (the current one for sort:rating), refusing mixed windows."""
    if sort is LeaderboardSort.RATING:
        if variant is not None:
            raise HostingError(Problem.RATING_HAS_NO_VARIANT)
        if period is not Period.ALL_TIME:
            raise HostingError(Problem.RATING_HAS_NO_PERIOD)
    elif season is not None and period is not Period.ALL_TIME:
        raise HostingError(Problem.PERIOD_AND_SEASON)
    seasons = await store.seasons.seasons(guild_id)
    if season is None:
        return seasons[0] if seasons and sort is LeaderboardSort.RATING else None
    found = next((s for s in seasons if s.number == season), None)
    if found is None:
        raise HostingError(Problem.NO_SUCH_SEASON, season=season)
    return found


async def rating_page(
    store: Store, guild_id: int, season: Season | None, page: int, user_id: int | None
) -> LeaderboardPage:
    """A page of the season's humans by shown rating (AIs are rated but never listed)."""
    page = max(page, 0)
    rows: list[RatingRow] = []
    total, me = 0, None
    if season is not None:
        number = season.number
        rows, total, me = await store.ratings.leaderboard(
            guild_id, number, limit=PAGE_SIZE, offset=page * PAGE_SIZE, user_id=user_id)
        pages = max(1, math.ceil(total / PAGE_SIZE))
        if page >= pages:  # a button from when there were more players: show the last page
            page = pages - 1
            rows, total, me = await store.ratings.leaderboard(
                guild_id, number, limit=PAGE_SIZE, offset=page * PAGE_SIZE, user_id=user_id)
    pages = max(1, math.ceil(total / PAGE_SIZE))
    return LeaderboardPage(guild_id, LeaderboardSort.RATING, None, Period.ALL_TIME, page, pages,
                           total, tuple(rows), me, 1, season)
