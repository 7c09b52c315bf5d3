"""Numbers in sentences: a word a number counts agrees with it in every language.

"1 round", "2 rounds"; "1 kolo, 2 kola, 5 kol"; "1 ronda, 2 rondas". Only a plural entry can do
that (its `msgstr[n]` forms, chosen by the catalogue's Plural-Forms rule), and its number is
`{count}`. So the rule the catalogues keep is:

- a number that a word counts is the `{count}` of a plural entry; a line that counts two things
  is built from pieces, each its own plural entry (`tournament.points`, `stats.games.count`);
- every other placeholder says here what it holds: words, or a number that no word counts (an
  ordinal, an id, a figure after its label or before a unit symbol).

A new placeholder fails until it is listed below, which is where to stop and ask: does a word
count it? Then it is `{count}` of a plural entry instead.
"""

from __future__ import annotations

import discord
import pytest

import i18n
from cogs import errors, stats_embeds, tournaments
from cogs.lobbies import new_lobby
from hosting import HostingError, Problem
from hosting.swiss import Standing
from hosting.views import GameOptions, GameView, SeatView, Status
from i18n.catalog import load, placeholders
from i18n.phrases import PHRASE_PLACEHOLDERS
from store.rating_records import PlayerRating
from store.tournaments import Entry, Tournament, TournamentStatus

LOCALES = i18n.SUPPORTED_LOCALES

# Placeholders holding words: names, links, lists, dates, and pieces already rendered by their
# own (plural) entries.
WORDS = {
    "card", "cards", "top", "token", "tokens", "name", "names", "mention", "mentions", "host",
    "organiser", "players", "winners", "channel", "thread", "command", "link", "url", "variant",
    "language", "option", "label", "sort", "date", "time", "season",
    "games",  # a list of channels (error.dm_ambiguous), or a games count rendered by its entry
    "points",  # points rendered by their plural entry (tournament.points, points.count)
    "value",  # a card's value ("3+"), a setting's value, or a decimal "per game"
    "duration",  # a time span rendered by i18n.format_duration ("1 h 30 min")
    "game_end",  # the rules' end of a game, rendered by rules.game_end.* (its target counted)
    "when",  # a Discord timestamp (<t:…:R>): each reader's client words it ("in 45 seconds")
}
# Numbers no word counts, so one form fits every number.
FIGURES = {
    "number", "round", "rank", "place", "game_id",  # ordinals and ids: "round 3", "#12"
    "table",  # a table's number ("table 2"), or a link to the table message
    "page", "pages", "step", "steps", "rounds",  # "page 2 of 5", "round 2 of 3"
    "taken", "max",  # "Seats (3/6)"
    "score", "penalty", "total", "wins", "mine", "theirs", "ahead", "behind",  # after a label
    "size",  # "tables of up to 4"
    "seconds",  # before the unit symbol: "30 s"
    "average", "win_rate", "rating", "change",  # formatted decimals, percentages, ratings
}
COUNT = "count"


def _entries():
    """(locale, key, message) for every message of every catalogue."""
    for locale in LOCALES:
        for key, message in load(locale).messages.items():
            yield locale, key, message


def _placeholders(message) -> set[str]:
    return set().union(*(placeholders(form) for form in message.forms))


def test_every_placeholder_says_whether_a_word_counts_it():
    unknown = sorted({f"{key}: {{{name}}}" for _locale, key, message in _entries()
                      for name in _placeholders(message) - WORDS - FIGURES - {COUNT}})
    assert not unknown, (
        "a number a word counts (\"{n} rounds\") must be the {count} of a plural entry (split a "
        "line that counts two things into pieces, each its own plural entry); anything else, "
        f"list in WORDS or FIGURES of {__name__}: {unknown}"
    )


def test_the_lists_do_not_overlap():
    assert not WORDS & FIGURES
    assert COUNT not in WORDS | FIGURES


def test_only_a_plural_entry_counts():
    """{count} in a single-form entry would read "1 rounds": it must be a plural entry."""
    single = sorted({key for _locale, key, message in _entries()
                     if not message.plural and COUNT in _placeholders(message)})
    assert not single


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("n", [1, 2, 5])
def test_every_message_with_a_number_renders_the_form_its_language_picks(locale, n):
    """Rendered with 1, 2 and 5 (one, few and many in Czech), each message shows the number in
    the form the language's rule picks for it; figures fit any number."""
    catalog = load(locale)
    for key, message in catalog.messages.items():
        names = _placeholders(message)
        if not names & (FIGURES | {COUNT}) and not message.plural:
            continue
        params = {name: _value(name, n) for name in names - {COUNT}}
        text = i18n.t(key, locale, count=n if message.plural else None, **params)
        form = message.forms[catalog.plural_index(n)] if message.plural else message.forms[0]
        assert text == form.format(count=n, **params), (key, n)
        if COUNT in names:
            assert str(n) in text, (key, n)


def _value(name: str, n: int) -> object:
    if name in PHRASE_PLACEHOLDERS:
        return i18n.Phrase.plain("X")
    return n if name in FIGURES else "X"


# ---------------------------------------------------------------- what players read, by count


def cup(rounds: int) -> Tournament:
    entries = (Entry(1, 101, None, "Eva"), Entry(2, 102, None, "Ana"), Entry(3, 103, None, "Bo"))
    return Tournament(1, 1, 2, 101, "Jarní pohár", rounds, 3, "classic",
                      TournamentStatus.SIGNUP, 0, None, entries)


@pytest.mark.parametrize(
    ("locale", "rounds", "says"),
    [("cs", 1, ": 1 kolo,"), ("cs", 2, ": 2 kola,"), ("cs", 5, ": 5 kol,"),
     ("en", 1, ": 1 round,"), ("en", 2, ": 2 rounds,"),
     ("es", 1, ": 1 ronda,"), ("es", 5, ": 5 rondas,")],
)
def test_a_tournament_counts_its_rounds(locale, rounds, says):
    assert says in tournaments.signup_embed(cup(rounds), locale).description


@pytest.mark.parametrize(
    ("locale", "points", "games", "line"),
    [("en", 1, 1, "1. Eva · 1 pt · penalty 4 · 1 game"),
     ("en", 2, 5, "1. Eva · 2 pts · penalty 4 · 5 games"),
     ("cs", 1, 2, "1. Eva · 1 bod · skóre 4 · 2 hry"),
     ("cs", 2, 1, "1. Eva · 2 body · skóre 4 · 1 hra"),
     ("cs", 5, 5, "1. Eva · 5 bodů · skóre 4 · 5 her"),
     ("es", 1, 2, "1. Eva · 1 punto de torneo · penalización 4 · 2 partidas"),
     ("es", 2, 1, "1. Eva · 2 puntos de torneo · penalización 4 · 1 partida")],
)
def test_a_standing_counts_its_points_and_its_games_each_in_agreement(locale, points, games, line):
    rows = [Standing(entry=1, rank=1, points=points, total_score=4, games=games)]
    standings = tournaments.standings_embed(cup(3), rows, locale, final=False).description
    assert standings.replace("<@101>", "Eva") == line


def rematch(seated: int) -> GameView:
    """A rematch lobby opened by P0 (user 100), who seated `seated` more players."""
    seats = tuple(SeatView(i, f"P{i}", 100 + i, None, seated_by_rematch=i > 0)
                  for i in range(seated + 1))
    return GameView(game_id=8, guild_id=1, channel_id=2, host_id=100, status=Status.LOBBY,
                    options=GameOptions(), seats=seats, rematch_of=7)


@pytest.mark.parametrize(
    ("seated", "ping"),
    [(1, "<@101>: v odvetě máš místo."), (2, "<@101> <@102>: v odvetě máte místo.")],
)
async def test_a_czech_rematch_ping_speaks_to_one_player_as_ty_and_to_several_as_vy(seated, ping):
    assert new_lobby(rematch(seated), "cs")["content"] == ping


@pytest.mark.parametrize(
    ("locale", "limit", "says"),
    [("cs", 2, "(2 místa)"), ("cs", 6, "(6 míst)"), ("en", 1, "(1 seat)"), ("es", 1, "(1 plaza)")],
)
def test_a_full_lobby_counts_its_seats(locale, limit, says):
    assert says in errors.explain(HostingError(Problem.LOBBY_FULL, limit=limit), locale)


@pytest.mark.parametrize(
    ("locale", "minimum", "says"),
    [("cs", 3, "aspoň 3 přihlášky"), ("cs", 5, "aspoň 5 přihlášek"),
     ("en", 3, "at least 3 entrants"), ("es", 1, "al menos 1 inscripción")],
)
def test_too_few_entrants_are_counted(locale, minimum, says):
    refusal = HostingError(Problem.NOT_ENOUGH_ENTRANTS, minimum=minimum)
    assert says in errors.explain(refusal, locale)


@pytest.mark.parametrize(
    ("locale", "tables", "says"),
    [("cs", 1, "1 stůl"), ("cs", 2, "2 stoly"), ("cs", 5, "5 stolů"),
     ("en", 1, "1 table"), ("en", 2, "2 tables"), ("es", 1, "1 mesa"), ("es", 2, "2 mesas")],
)
def test_a_table_without_a_human_is_refused_with_the_tables_counted(locale, tables, says):
    refusal = HostingError(Problem.NOT_ENOUGH_HUMANS, tables=tables)
    text = errors.explain(refusal, locale)
    assert says in text and "?" not in text


@pytest.mark.parametrize(
    ("locale", "games", "change"),
    [("en", 1, "+29 in 1 game"), ("en", 2, "+29 in the last 2 games"),
     ("cs", 1, "+29 za 1 hru"), ("cs", 2, "+29 za poslední 2 hry"),
     ("cs", 5, "+29 za posledních 5 her"),
     ("es", 1, "+29 en 1 partida"), ("es", 5, "+29 en las últimas 5 partidas")],
)
def test_a_rating_change_over_one_game_is_not_over_the_last_one_game(locale, games, change):
    embed = discord.Embed()
    rating = PlayerRating(season=1, rating=1029, provisional=False, games=games,
                          change_recent=29, recent_games=games, best=1029, rank=None)
    stats_embeds._add_rating_fields(embed, rating, locale)
    assert embed.fields[1].value == change


# ---------------------------------------------------------------- durations


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("seconds", "shown"), [
    (45, "45 s"), (60, "1 min"), (90, "1 min 30 s"), (120, "2 min"), (3600, "1 h"),
    (5400, "1 h 30 min"), (3661, "1 h 1 min 1 s"),
])
def test_a_duration_is_shown_in_the_largest_units_that_fit(locale, seconds, shown):
    assert i18n.format_duration(seconds, locale) == shown


@pytest.mark.parametrize(("locale", "line"), [
    ("en", "turn timer: 1 h"), ("cs", "limit na tah: 1 h"), ("es", "tiempo por turno: 1 h"),
])
def test_a_lobby_shows_an_hours_turn_timer_as_1_h_not_3600_s(locale, line):
    lobby = GameView(
        game_id=7, guild_id=1, channel_id=2, host_id=101, status=Status.LOBBY,
        options=GameOptions(variant="classic", target=40, turn_timeout=3600),
        seats=(SeatView(0, "Eva", 101, None),),
    )
    description = new_lobby(lobby, locale)["embed"].description
    assert line in description and "3600" not in description
