"""Messages the whole channel reads speak to the whole table, and Spanish suits every reader.

The English catalogue marks who reads a message (`python -m i18n.sync` copies the marks):
`#, public` — shown in the channel to everyone: Czech and Spanish may not use the singular
"you" there; `#, addressed` — shown in the channel but said to one player (it mentions them,
or answers their command), so "you" is right. Unmarked messages are private (DMs, ephemeral).
"""

from __future__ import annotations

import pytest

import i18n
from i18n.catalog import load
from i18n.glossary import glossary_path
from i18n.sync import MARKERS
from tests.support.language import regional_words, singular_you

PUBLIC_KEYS = sorted(k for k in i18n.message_keys() if i18n.is_public(k))
FIX = (
    "marked `#, public`: the whole channel reads it, so speak to all players (Czech: vy or an "
    "impersonal form; Spanish: an impersonal form or 'cada jugador'), never to one. If it is "
    "said to one mentioned player, mark it `#, addressed` in the English catalogue and run "
    "`python -m i18n.sync`. Words checked: "
)


def test_the_public_messages_are_marked():
    assert {"move.played", "round.new_hands", "lobby.started", "game.shared_winners"} <= set(
        PUBLIC_KEYS
    )
    assert not i18n.is_public("hand.title")  # a DM
    assert not i18n.is_public("table.your_turn")  # addressed to the player it mentions


@pytest.mark.parametrize("locale", ["cs", "es"])
def test_public_messages_use_no_singular_you(locale):
    catalog = load(locale)
    problems = [
        (key, hits, form)
        for key in PUBLIC_KEYS
        for form in catalog.messages[key].forms
        if (hits := singular_you(form, locale))
    ]
    assert not problems, f"{FIX}{glossary_path(locale)} [public]. Found: {problems}"


@pytest.mark.parametrize(
    ("locale", "text", "hits"),
    [
        ("cs", "Nové karty ti přijdou do soukromé zprávy, až budeš na tahu.", ["ti", "budeš"]),
        ("cs", "Nové karty vám přijdou do soukromé zprávy, až budete na tahu.", []),
        ("cs", "{name} hraje {card.acc}", []),
        ("es", "Tu nueva mano llegará por mensaje directo cuando sea tu turno.", ["tu", "tu"]),
        ("es", "Cada jugador recibirá su nueva mano cuando le toque.", []),
    ],
)
def test_the_singular_you_check_reads_like_a_native(locale, text, hits):
    assert singular_you(text, locale) == hits


@pytest.mark.parametrize("locale", ["cs", "es"])
def test_translations_carry_the_english_reader_marks(locale):
    english, ours = load("en"), load(locale)
    differ = [
        key
        for key, message in english.messages.items()
        if key in ours.messages
        and (ours.messages[key].flags & MARKERS) != (message.flags & MARKERS)
    ]
    assert not differ, f"run `python -m i18n.sync`: {differ}"


def test_spanish_suits_spain_and_latin_america():
    """es-ES and es-419 read one catalogue: no vosotros ("Os envío", "pedid"), no words that
    read differently across the Atlantic."""
    catalog = load("es")
    problems = [
        (key, hits, form)
        for key, message in catalog.messages.items()
        for form in message.forms
        if (hits := regional_words(form, "es"))
    ]
    assert not problems, f"see {glossary_path('es')} [neutral]: {problems}"


@pytest.mark.parametrize(
    ("text", "hits"),
    [
        ("¡Empieza la partida! Os envío las manos por mensaje directo.", ["os"]),
        ("Únete a la siguiente o pedid la revancha.", ["pedid"]),
        ("Todavía no habéis terminado ninguna partida.", ["habéis"]),
        ("Cada mosquito vale 10 puntos.", []),
    ],
)
def test_the_vosotros_check_is_not_vacuous(text, hits):
    assert regional_words(text, "es") == hits


@pytest.mark.parametrize("discord_locale", ["es-419", "es-ES"])
def test_latin_american_and_european_spanish_read_the_same_neutral_texts(discord_locale):
    assert i18n.resolve_locale(discord_locale) == "es"
    assert i18n.t("lobby.started", discord_locale) == (
        "¡Empieza la partida! Las manos van llegando por mensaje directo."
    )
    assert i18n.t("error.game_already_started", discord_locale) == (
        "La partida ya empezó: únete a la siguiente o pide la revancha."
    )
