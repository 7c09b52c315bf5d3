"""/leaderboard names a rating season only when the server has (or had) seasons (issue 34): with
seasons off, the one season there ever was is all of time, not "Season 1"."""

from __future__ import annotations

import pytest

from cogs.leaderboard import leaderboard_embed
from hosting.boards import LeaderboardPage, Period
from store import LeaderboardSort
from store.rating_records import Season

APRIL_2026 = 1775001600


def board(cadence: str, number: int = 1) -> LeaderboardPage:
    season = Season(1, number, cadence, APRIL_2026, None, None, None)
    return LeaderboardPage(1, LeaderboardSort.RATING, None, Period.ALL_TIME, 0, 1, 0, (), None,
                           1, season=season)


@pytest.mark.parametrize(("locale", "title"), [
    ("en", "LAMA leaderboard: all time"),
    ("cs", "Žebříček LAMA za celou dobu"),
    ("es", "Clasificación histórica de LAMA"),
])
def test_with_seasons_off_the_rating_board_is_all_time(locale, title):
    assert leaderboard_embed(board("off"), locale).title == title


@pytest.mark.parametrize(("locale", "season"), [
    ("en", "April 2026"), ("cs", "Duben 2026"), ("es", "Abril 2026")])
def test_with_seasons_on_the_board_names_its_season(locale, season):
    assert season in leaderboard_embed(board("monthly"), locale).title


def test_a_later_season_with_seasons_turned_off_keeps_its_number():
    """Seasons were on before: the ratings since they were turned off are not all of time."""
    assert leaderboard_embed(board("off", 3), "en").title == "LAMA leaderboard: Season 3"
