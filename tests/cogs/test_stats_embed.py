"""What /lama stats shows, built directly from a report (cogs/stats_embeds.stats_embed)."""

from __future__ import annotations

import re

import pytest

import i18n
from cogs.stats_embeds import stats_embed
from hosting.stats import PlayerReport
from store import PlayerStats
from store.records import HeadToHead


def report(current: int = 0, longest: int = 0, h2h: HeadToHead | None = None) -> PlayerReport:
    stats = PlayerStats(
        user_id=1, games=4, wins=longest, win_rate=longest / 4, avg_score=12.5, best_score=3,
        tokens=40, clean_rounds=1, favourite_variant="classic", current_streak=current,
        longest_streak=longest, games_vs_ai=0, last_games=(),
    )
    return PlayerReport(stats=stats, head_to_head=h2h)


def field(embed, key: str, locale: str = "en") -> str:
    return next(f.value for f in embed.fields if f.name == i18n.t(key, locale))


@pytest.mark.parametrize("locale", i18n.SUPPORTED_LOCALES)
def test_no_win_streak_is_a_dash_not_zero_wins_in_a_row(locale):
    embed = stats_embed(report(current=0, longest=0), "Eva", locale)
    assert field(embed, "stats.streak.current", locale) == "—"
    assert field(embed, "stats.streak.longest", locale) == "—"


def test_a_win_streak_counts_its_wins():
    embed = stats_embed(report(current=1, longest=3), "Eva", "en")
    assert field(embed, "stats.streak.current") == "1 win in a row"
    assert field(embed, "stats.streak.longest") == "3 wins in a row"


@pytest.mark.parametrize("locale", i18n.SUPPORTED_LOCALES)
def test_head_to_head_names_whose_wins_and_places_each_number_is(locale):
    h2h = HeadToHead(user_a=1, user_b=2, games=5, a_wins=2, b_wins=3, a_ahead=1, b_ahead=4)
    lines = field(stats_embed(report(h2h=h2h), "Eva", locale), "stats.vs.title", locale)
    wins, places = lines.splitlines()[1:]
    for line, mine, theirs in ((wins, "2", "3"), (places, "1", "4")):
        between = re.fullmatch(rf"\D*{mine}(\D*){theirs}", line)
        assert between and re.search(r"[^\W\d_]", between[1]), line  # the other side named
