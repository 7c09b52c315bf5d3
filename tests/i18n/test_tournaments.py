"""A tournament's words in English, Czech and Spanish: how sign-ups say who sits together,
how the standings name their points apart from the game's penalty points, and how they mark
who is still playing (renderers fed plain values; no Discord needed)."""

from __future__ import annotations

import re

import pytest

import i18n
from cogs import tournaments
from hosting.swiss import Standing
from hosting.tournament import TournamentEvent, TournamentUpdate
from i18n.catalog import load
from store.tournaments import Entry, TableRecord, Tournament, TournamentStatus

EVA, ANA = Entry(1, 101, None, "Eva"), Entry(2, 102, None, "Ana")


def cup(*entries: Entry) -> Tournament:
    return Tournament(1, 1, 2, 101, "Jarní pohár", 2, 3, "classic", TournamentStatus.RUNNING,
                      1, None, entries)


def test_czech_sign_up_says_in_words_who_sits_together():
    """Not the terse "vedoucí spolu": who stands alike in the standings shares a table."""
    for rounds in (1, 2, 5):
        about = i18n.t("tournament.about", "cs", count=rounds, size=4, variant="x",
                       organiser="o")
        assert "vedoucí spolu" not in about
        assert "kdo je na tom bodově podobně, hraje u jednoho stolu" in about


def test_spanish_tournament_points_are_never_the_games_puntos():
    """The game counts penalty points ("puntos"); the tournament ranks by its own points:
    each is named so that the one is never read as the other."""
    line = i18n.t("tournament.standing", "es", rank="1.", name="Ana", score=45, games="x",
                  points=i18n.t("tournament.points", "es", count=3))
    assert line == "1. Ana · 3 puntos de torneo · penalización 45 · x"
    tie_breaks = i18n.t("tournament.tie_breaks", "es")
    assert "Puntos de torneo" in tie_breaks and "puntos de penalización" in tie_breaks
    bare = [key for key, message in load("es").messages.items()
            if key.startswith("tournament.") for form in message.forms
            if re.search(r"\bpuntos?\b(?! de (torneo|penalización))", form, re.IGNORECASE)]
    assert not bare


def test_english_standings_tell_tournament_points_from_penalty_points():
    line = i18n.t("tournament.standing", "en", rank="1.", name="Ana", score=45, games="x",
                  points=i18n.t("tournament.points", "en", count=3))
    assert line == "1. Ana · 3 pts · penalty 45 · x"
    tie_breaks = i18n.t("tournament.tie_breaks", "en")
    assert "Tournament points" in tie_breaks and "penalty points" in tie_breaks


@pytest.mark.parametrize(("locale", "playing"), [
    ("en", "⏳ playing"), ("cs", "⏳ hraje"), ("es", "⏳ jugando"),
])
def test_mid_round_standings_mark_who_is_still_playing_and_say_why(locale, playing):
    rows = [Standing(entry=1, rank=1, points=2, total_score=4, games=1),
            Standing(entry=2, rank=2, points=0, total_score=0, games=0, playing=True)]
    embed = tournaments.standings_embed(cup(EVA, ANA), rows, locale, final=False)
    first, second = embed.description.splitlines()
    assert second.endswith(f" · {playing}") and playing not in first
    assert embed.footer.text.splitlines()[-1].startswith(f"{playing}: ")


def test_standings_without_anyone_playing_explain_only_the_tie_breaks():
    rows = [Standing(entry=1, rank=1, points=2, total_score=4, games=1)]
    embed = tournaments.standings_embed(cup(EVA), rows, "en", final=True)
    assert embed.footer.text == i18n.t("tournament.tie_breaks", "en")


def seated(tables: int) -> TournamentUpdate:
    return TournamentUpdate(TournamentEvent.ROUND_SEATED, cup(EVA, ANA), tables=tuple(
        TableRecord(1, n, (1, 2), 1, None) for n in range(1, tables + 1)))


@pytest.mark.parametrize("locale", i18n.SUPPORTED_LOCALES)
@pytest.mark.parametrize("in_threads", [True, False])
def test_a_one_table_round_speaks_of_one_table(locale, in_threads):
    """Not "every table plays at the same time" (or "one after another") of a single table."""
    one = tournaments.round_embed(seated(1), locale, in_threads=in_threads).description
    two = tournaments.round_embed(seated(2), locale, in_threads=in_threads).description
    assert one.rsplit("\n", 1)[1] == i18n.t(
        "tournament.tables_at_once" if in_threads else "tournament.tables_in_channel",
        locale, count=1)
    for plural_only in ("Every", "at the same time", "one after another", "současně",
                        "jeden po druhém", "a la vez", "una tras otra"):
        assert plural_only not in one
    assert one.rsplit("\n", 1)[1] != two.rsplit("\n", 1)[1]
