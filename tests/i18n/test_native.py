"""Czech and Spanish as native speakers write them: the wordings players reported, in the
places the bot shows them (renderers fed plain views; no Discord needed)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

import i18n
from cogs import embeds, errors, leaderboard, tournaments
from cogs.embeds import rules_text
from cogs.text import move_line, seat_name, tokens_text
from hosting.stats import LeaderboardPage, Period
from hosting.swiss import Standing
from hosting.views import GameOptions, GameView, SeatRating, SeatView, Status
from i18n.isolates import FSI, PDI
from lama import Card, Game, IllegalAction, Reason
from lama import events as ev
from store import LeaderboardRow, LeaderboardSort
from store.tournaments import Entry, Tournament, TournamentStatus

NBSP = "\u00a0"
PLAYER1, PLAYER2 = f"{FSI}Player1{PDI}", f"{FSI}Player2{PDI}"  # names a member chose: isolated


def view(variant="classic", status=Status.RUNNING, winners=(), top="L", **seat_changes):
    seats = (
        SeatView(0, "Player1", 101, None, card_count=3, score=12),
        SeatView(1, "Player2", 102, None, card_count=4, score=19),
        SeatView(2, "", None, "normal", card_count=2, score=12),
    )
    seats = tuple(
        replace(s, **seat_changes.get(f"seat{s.index}", {})) for s in seats
    )
    return GameView(
        game_id=7, guild_id=1, channel_id=2, host_id=101, status=status,
        options=GameOptions(variant=variant, target=40, turn_timeout=120), seats=seats,
        round_number=2, top_card=top, draw_pile_size=20, current_seat=0, winners=winners,
    )


def played(code, variant, locale):
    return move_line(ev.CardPlayed(0, Card.from_code(code), 3), "Eva", locale, variant)


# ------------------------------------------------------------------------------ Czech


@pytest.mark.parametrize(
    ("code", "variant", "line"),
    [
        ("L", "classic", "Eva hraje lamu"),
        ("P", "party", "Eva hraje růžovou lamu"),
        ("L", "komarami", "Eva hraje komára"),
        ("4", "classic", "Eva hraje 4"),
    ],
)
def test_czech_cards_are_played_in_the_accusative(code, variant, line):
    assert played(code, variant, "cs") == line


def test_czech_nothing_to_play_on_a_llama_says_na_lamu():
    top = i18n.card_phrase("L", "classic", "cs")
    assert i18n.t("hand.nothing_playable", "cs", top=top) == (
        "Na lamu nemáš co zahrát: lízni si, nebo odstup."
    )


def test_czech_a_card_that_does_not_fit_is_refused_na_lamu():
    """As in English and Spanish: the sentence starts with words, not the card's emoji."""
    error = IllegalAction(Reason.CARD_NOT_PLAYABLE, 0, Card.from_code("2"),
                          (Card.from_code("L"), Card.from_code("1")))
    assert errors.explain(error, "cs", view(top="L")) == (
        "Na lamu nejde zahrát 2. Můžeš zahrát: 🦙 lama nebo 1️⃣ 1."
    )


def test_czech_shared_winners_are_joined_with_a():
    finished = view(status=Status.FINISHED, winners=(0, 2))
    ai = seat_name(finished.seats[2], "cs")
    text = embeds.game_end_embed(finished, "cs").description
    assert text == f"O vítězství se dělí {PLAYER1} a{NBSP}{ai} (12 bodů)!"


def test_czech_round_summary_tells_everyone_when_their_hand_comes():
    ended = ev.RoundEnded(1, ev.RoundEndReason.ALL_QUIT, ())
    text = embeds.round_summary_embed(view(), ended, "cs").description
    assert "Nové karty už máte ve zprávě s kartami" in text
    assert " ti " not in text and "budeš" not in text


def test_czech_the_last_player_in_the_round_may_not_draw():
    event = ev.ForcedQuit(0, ev.ForcedQuitReason.ALONE)
    assert move_line(event, "Eva", "cs", "classic") == (
        "Eva musí odstoupit (nemá co zahrát a jako poslední v kole si nesmí líznout)"
    )


def test_czech_extra_turn_after_a_plus_card():
    assert i18n.t("hand.extra_turn", "cs") == "Tah navíc! Po plusové kartě hraješ znovu."


def test_czech_command_descriptions_read_right():
    assert i18n.t("cmd.hand.description", "cs") == "Znovu ukáže tvé karty (uvidíš je jen ty)"
    assert i18n.t("cmd.new.option.variant.description", "cs").startswith(
        "Kterou variantu hry LAMA hrát"
    )


def row(win_rate=0.0):
    return LeaderboardRow(rank=1, user_id=5, games=4, wins=0, win_rate=win_rate, avg_score=23.5,
                          tokens=94, tokens_per_game=23.5, clean_rounds=0)


@pytest.mark.parametrize(("locale", "rate"), [("cs", f"0{NBSP}%"), ("es", f"0{NBSP}%"),
                                                ("en", "0%")])
def test_percentages_follow_the_locale(locale, rate):
    assert leaderboard.metric(row(), LeaderboardSort.WIN_RATE, locale).startswith(f"**{rate}**")


def test_czech_decimals_use_a_comma():
    text = leaderboard.metric(row(), LeaderboardSort.AVG_SCORE, "cs")
    assert text.startswith("**⌀ 23,5 bodu**")


def board(period):
    return LeaderboardPage(guild_id=1, sort=LeaderboardSort.WINS, variant=None, period=period,
                           page=0, pages=1, total=1, rows=(row(),), me=None, min_games=1)


@pytest.mark.parametrize(
    ("locale", "title"),
    [
        ("cs", "Žebříček LAMA za celou dobu"),
        ("es", "Clasificación histórica de LAMA"),
        ("en", "LAMA leaderboard: all time"),
    ],
)
def test_the_all_time_leaderboard_title(locale, title):
    assert leaderboard.leaderboard_embed(board(Period.ALL_TIME), locale).title == title


def test_czech_has_no_gender_hedges():
    hedged = [
        (key, form)
        for key, message in i18n.core.catalog("cs").messages.items()
        for form in message.forms
        if re.search(r"\w\((a|la|y|i)\)", form)
    ]
    assert not hedged, "write around the gender (present tense, 'můžeš'), never 'mohl(a)'"


@pytest.mark.parametrize(
    ("locale", "host_seat", "readiness"),
    [
        ("cs", f"1. {PLAYER1} (pořádá hru)", "Připraveno: hru může spustit ten, kdo ji pořádá."),
        ("es", f"1. {PLAYER1} (organiza)", "Listo: quien organiza ya puede empezar."),
    ],
)
def test_the_lobby_says_what_the_host_does_not_who_they_are(locale, host_seat, readiness):
    """"zakladatel" and "anfitrión" make the host a man; a verb fits anyone."""
    lobby = embeds.lobby_embed(view(status=Status.LOBBY), locale)
    assert lobby.fields[0].value.splitlines()[0] == host_seat
    assert readiness in lobby.description


def test_czech_hand_is_your_cards_like_the_my_cards_button():
    """"Tvoje ruka" is English put into Czech; players say karty, as the table's button does."""
    assert i18n.t("hand.title", "cs", round=2) == "Tvoje karty: 2. kolo"
    assert i18n.t("table.button.hand", "cs") == "Moje karty"


def cup(*entries):
    return Tournament(1, 1, 2, 101, "Jarní pohár", 2, 3, "classic", TournamentStatus.SIGNUP,
                      0, None, tuple(entries))


def test_a_tournaments_ai_entrants_are_named_in_the_readers_language():
    """In a Czech server the AI entrants read as they do at the tables ("Lamobot"), not as
    the English name stored when they were added; each is numbered among the AI entrants."""
    entries = (Entry(1, 101, None, "Eva"), Entry(2, None, "normal", "Llama-bot 1 (normal)"),
               Entry(3, None, "hard", "Llama-bot 2 (hard)"))
    signups = tournaments.signup_embed(cup(*entries), "cs").fields[0].value
    assert signups == "<@101>, 🤖 Lamobot 1 (střední), 🤖 Lamobot 2 (těžká)"
    rows = [Standing(entry=3, rank=1, points=2, total_score=4, games=2)]
    final = tournaments.standings_embed(cup(*entries), rows, "es", final=True).description
    assert "Llamabot 2" in final and "Llama-bot" not in final


def test_czech_forget_me_command_is_grammatical():
    assert i18n.t("cmd.forget-me.name", "cs") == "smazat-statistiky"


# ----------------------------------------------------------------------------- Spanish


def test_spanish_plus_card_is_carta_mas_nowhere():
    extra = move_line(ev.ExtraTurn(0), "Ana", "es", "party")
    assert extra == "Ana juega una carta «+»: ¡vuelve a jugar!"
    assert i18n.t("hand.extra_turn", "es") == (
        "¡Turno extra! Jugaste una carta «+», así que vuelves a jugar."
    )
    texts = [rules_text("party", "es"), i18n.t("card.plus.hint", "es"),
             i18n.t("variant.party.description", "es")]
    for text in texts:
        assert "«+»" in text and "carta más" not in text, text


@pytest.mark.parametrize(
    ("code", "variant", "line"),
    [
        ("L", "classic", "Eva juega una llama"),
        ("P", "party", "Eva juega la llama rosa"),
        ("L", "komarami", "Eva juega un mosquito"),
        ("4", "classic", "Eva juega un 4"),
    ],
)
def test_spanish_cards_take_their_article(code, variant, line):
    assert played(code, variant, "es") == line


def test_spanish_nothing_fits_sobre_una_llama():
    top = i18n.card_phrase("L", "classic", "es")
    assert i18n.t("hand.nothing_playable", "es", top=top) == (
        "No tienes nada que jugar sobre una llama: roba o plántate."
    )


def test_spanish_shared_winners_are_joined_with_y():
    finished = view(status=Status.FINISHED, winners=(0, 2))
    ai = seat_name(finished.seats[2], "es")
    text = embeds.game_end_embed(finished, "es").description
    assert text == f"¡{PLAYER1} y {ai} comparten la victoria con 12 puntos!"


def test_spanish_forced_quit_does_not_give_the_player_a_gender():
    """Alicia is not "el último que queda": the line is said of any player."""
    alone = ev.ForcedQuit(0, ev.ForcedQuitReason.ALONE)
    line = move_line(alone, "Alicia", "es", "classic")
    assert line.startswith("Alicia tiene que plantarse")
    assert not re.search(r"\b(el|la) últim[oa]\b", line), line


def test_the_final_standings_explain_a_provisional_rating():
    """'rating 1081?' after a name means nothing without the legend the leaderboard has."""
    ratings = (SeatRating(0, 1081, 81, provisional=True), SeatRating(1, 931, -69, False))
    finished = replace(view(status=Status.FINISHED, winners=(0,)), ratings=ratings)
    for locale in ("en", "cs", "es"):
        end = embeds.game_end_embed(finished, locale)
        assert "1081?" in end.fields[0].value
        assert i18n.t("leaderboard.rating_legend", locale) in end.footer.text
    settled = replace(finished, ratings=(replace(ratings[0], provisional=False),))
    assert "?" not in embeds.game_end_embed(settled, "en").footer.text


def test_spanish_round_starter_is_the_subject_first():
    started = ev.RoundStarted(3, 1, Card.from_code("4"))
    assert embeds.describe_event(started, view(), "es") == f"{PLAYER2} empieza esta ronda."


def test_spanish_no_tokens_reads_sin_fichas():
    assert tokens_text((), "es") == "sin fichas"
    seats = embeds.seat_lines(view(seat1={"score": 0}), "es")
    assert "sin fichas (0)" in seats


def test_spanish_lobby_settings_have_colons():
    lobby = embeds.lobby_embed(view(status=Status.LOBBY), "es").description
    assert "Objetivo: 40 puntos · tiempo por turno: 2 min" in lobby


def test_spanish_round_summary_speaks_to_each_player():
    ended = ev.RoundEnded(1, ev.RoundEndReason.ALL_QUIT, ())
    text = embeds.round_summary_embed(view(), ended, "es").description
    assert "Cada jugador ya tiene su nueva mano en su mensaje de cartas" in text
    assert "Tu nueva mano" not in text


def observation(seat=0, has_quit=(True, False, False)):
    obs = Game.new("classic", 3, 1).observation(seat)
    return replace(obs, has_quit=has_quit, is_my_turn=False, round_number=2)


def test_spanish_hand_after_a_time_out_says_time_ran_out():
    timed_out = view(seat0={"has_quit": True, "timed_out": True})
    text = embeds.hand_embed(timed_out, observation(), "es").description
    assert "Se te acabó el tiempo: quedas fuera de esta ronda." in text
    assert "Te has plantado" not in text


@pytest.mark.parametrize(
    ("locale", "pointer", "top_card"),
    [
        ("en", "Not your turn: the top card and who is playing are on the table in <#2>.",
         "Top card"),
        ("cs", "Nejsi na tahu. Vrchní kartu i to, kdo je na tahu, uvidíš na stole v kanálu <#2>.",
         "Vrchní karta"),
        ("es", "No es tu turno: la carta de arriba y a quién le toca se ven en la mesa de <#2>.",
         "Carta de arriba"),
    ],
)
def test_a_waiting_hand_names_no_top_card_and_points_to_the_table(locale, pointer, top_card):
    """The hand is not redrawn as others move, so it shows no top card to go stale."""
    text = embeds.hand_embed(view(), observation(seat=1, has_quit=(False,) * 3), locale)
    assert text.description.endswith(pointer)
    assert top_card not in text.description


def test_a_move_after_a_time_out_is_refused_with_the_reason():
    timed_out = view(seat0={"has_quit": True, "timed_out": True})
    error = IllegalAction(Reason.ALREADY_QUIT, 0)
    assert errors.explain(error, "es", timed_out) == (
        "Se te acabó el tiempo: quedas fuera de esta ronda. Espera a la siguiente."
    )
    quit_ = view(seat0={"has_quit": True})
    assert errors.explain(error, "cs", quit_) == "V tomto kole už nehraješ: počkej na další."


def test_spanish_has_one_word_for_the_target_and_names_all_time_historica():
    assert i18n.t("stats.period.all_time", "es") == "Histórica"
    texts = [form for message in i18n.core.catalog("es").messages.values()
             for form in message.forms]
    assert not [text for text in texts if re.search(r"\bmetas?\b", text.lower())]
    lobby = i18n.t("lobby.settings", "es", count=40, duration="1 min")
    assert lobby.startswith("Objetivo: 40 puntos")


CZECH_IMPERATIVES = {"hraj", "otevři", "přidej", "odejdi", "spusť", "zruš", "vyřaď", "zobraz",
                     "vyber", "zahraj", "lízni", "odstup", "ukaž"}


def test_czech_command_descriptions_say_what_the_command_does():
    """As Discord's own Czech commands do ("Spustí hru"), never a mix with imperatives."""
    commanding = {
        key: text
        for key in i18n.message_keys()
        if key.startswith("cmd.") and key.endswith(".description") and ".option." not in key
        and (text := i18n.t(key, "cs")).split()[0].lower() in CZECH_IMPERATIVES
    }
    assert not commanding


def test_czech_extra_turn_line_is_not_a_second_card():
    assert move_line(ev.ExtraTurn(0), "Eva", "cs", "party") == "Plusová karta: Eva hraje znovu!"


@pytest.mark.parametrize(("count", "text"), [
    (1, "Hráči, kteří dohráli aspoň 1 hru."),
    (3, "Hráči, kteří dohráli aspoň 3 hry."),
    (5, "Hráči, kteří dohráli aspoň 5 her."),
])
def test_czech_leaderboard_minimum_reads_naturally(count, text):
    assert i18n.t("leaderboard.min_games", "cs", count=count) == text


def test_rules_count_cards_by_their_names():
    assert "tři pětky = 5" in rules_text("classic", "cs")
    assert "tres cincos = 5" in rules_text("classic", "es")


@pytest.mark.parametrize("locale, at_once, thread", [
    ("en", "at once", "thread"), ("cs", "současně", "vlákn"), ("es", "a la vez", "hilo"),
])
def test_a_tournaments_sign_up_says_its_tables_play_at_once_each_in_a_thread(
        locale, at_once, thread):
    """As the round post says and the tournament does (one after another only without threads)."""
    about = i18n.t("tournament.about", locale, count=2, size=4, variant="x", organiser="o")
    assert at_once in about and thread in about


def test_czech_tournament_round_is_an_ordinal_of_the_whole():
    assert i18n.t("tournament.round", "cs", name="Jarní pohár", round=1, rounds=2) == (
        "Jarní pohár: 1. kolo (celkem 2)")


@pytest.mark.parametrize("variant", ["classic", "party", "komarami"])
def test_czech_rules_say_one_higher_in_the_accusative(variant):
    rules = rules_text(variant, "cs")
    assert "o jednu vyšší" in rules and "o jedna vyšší" not in rules


@pytest.mark.parametrize("locale", i18n.SUPPORTED_LOCALES)
@pytest.mark.parametrize("variant", i18n.VARIANTS)
def test_a_lobbys_title_names_the_game_once(locale, variant):
    title = i18n.t("lobby.title", locale, variant=i18n.t(f"variant.{variant}", locale))
    assert title.count("LAMA") == (0 if variant == "komarami" else 1), title


def test_czech_a_card_that_fits_nowhere_is_refused_in_the_same_words():
    error = IllegalAction(Reason.CARD_NOT_PLAYABLE, 0, Card.from_code("2"), ())
    assert errors.explain(error, "cs", view(top="L")) == (
        "Na lamu nejde zahrát 2 ani nic jiného z tvé ruky: lízni si, nebo odstup."
    )


@pytest.mark.parametrize(("locale", "in_a_sentence", "alone"), [
    ("en", "English", "English"), ("cs", "čeština", "Čeština"), ("es", "español", "Español"),
])
def test_a_language_is_named_lowercase_mid_sentence_and_capitalised_alone(
        locale, in_a_sentence, alone):
    """Czech and Spanish write language names lowercase inside a sentence; a choice stands
    alone and keeps its capital."""
    assert i18n.t("language.own_name", locale) == in_a_sentence
    assert i18n.t(f"language.name.{locale}", locale) == alone


@pytest.mark.parametrize("variant", i18n.VARIANTS)
def test_spanish_rules_name_the_moves_as_the_buttons_do(variant):
    rules = rules_text(variant, "es")
    for action in ("play", "draw", "quit"):
        assert f"• **{i18n.t(f'action.{action}', 'es')}**" in rules, action


def test_spanish_a_game_not_started_says_who_starts_it_first():
    assert i18n.t("error.game_not_started", "es") == (
        "La partida aún no empezó: quien la organiza la inicia desde la sala.")
