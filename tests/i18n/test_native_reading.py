"""What a reading of whole games in Czech and Spanish found (issue 34), each wording pinned
where the bot shows it, and one past tense throughout the Spanish catalogue."""

from __future__ import annotations

import re

import pytest

import i18n
from cogs.embeds import rules_text
from cogs.text import move_line
from i18n.catalog import load
from lama import events as ev

VARIANTS = ("classic", "party", "komarami")


@pytest.mark.parametrize("locale", ["en", "cs", "es"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_rules_count_the_cards_without_a_second_colon(locale, variant):
    """"**Karty**: 56: čísla…" read as a typo: the count is part of the sentence."""
    text = rules_text(variant, locale)
    assert not re.search(r"\*\*[^*]+\*\*: \d+:", text), text.splitlines()[1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_czech_rules_found_the_discard_pile(variant):
    text = rules_text(variant, "cs")
    assert "a založí odhazovací balíček" in text and "začne odhazovací" not in text


def test_czech_party_rules_score_the_pink_llama_in_the_accusative():
    text = rules_text("party", "cs")
    assert "růžovou lamu za 20 (lama i růžová lama dohromady: 30)" in text


def test_czech_a_drawn_card_is_licked_not_taken():
    """The game's term: "lízne si kartu", as the rules and the Draw button say."""
    line = move_line(ev.CardDrawn(seat=0, draw_pile_left=9), "Carol", "cs", "classic")
    assert line == "Carol si lízne kartu"


def test_czech_hint_when_nothing_fits_says_no_card_can_be_played():
    assert i18n.t("play.hint.nothing_fits", "cs") == (
        "Žádnou kartu teď nemůžeš zahrát: lízni si, nebo odstup")


def test_czech_waiting_hand_points_to_the_table_in_plain_words():
    assert i18n.t("hand.not_your_turn", "cs", channel="#lama") == (
        "Nejsi na tahu. Vrchní kartu i to, kdo je na tahu, uvidíš na stole v kanálu #lama.")


def test_czech_writes_odted_as_one_word():
    """"místo od teď hraje AI": the adverb is one word."""
    split = {key: form for key, message in load("cs").messages.items()
             for form in message.forms if "od teď" in form}
    assert not split, split
    assert "odteď hraje AI" in i18n.t("game.left", "cs", name="Eva")


def test_czech_timed_out_hand_says_why_it_is_out():
    assert i18n.t("hand.timed_out", "cs", cards="1").startswith(
        "Vypršel ti čas, takže v tomto kole už nehraješ.")


@pytest.mark.parametrize("variant", VARIANTS)
def test_spanish_rules_read_naturally(variant):
    text = rules_text(variant, "es")
    assert "con el menor número posible de puntos de penalización" in text
    assert re.search(r"\*\*Cartas\*\*: 5[56] en total, con números del 1 al 6", text)
    assert text.endswith("si nadie lo hizo, quien se plantó el último.")


def test_spanish_a_closed_hand_points_to_the_most_recent_one():
    """Not "tu último mensaje de cartas" (the last one ever?); "cartas más" would read as
    the plus card (the glossary avoids it), so the most recent of them."""
    assert i18n.t("hand.moved", "es").endswith("en el más reciente de tus mensajes de cartas.")


# The compound perfect ("ha terminado", "te has unido") beside the simple past ("jugaste",
# "se te acabó") read as two voices: the catalogue tells what happened in the simple past,
# as Latin American Spanish (es-419 reads this catalogue too) and much of Spain do.
PERFECT = re.compile(
    r"\b(he|has|ha|hemos|han)\s+(\w+(?:ado|ada|ido|ida)s?|dicho|hecho|visto|puesto|vuelto"
    r"|abierto|escrito|roto|habido)\b", re.IGNORECASE)


def test_spanish_tells_the_past_in_one_tense():
    perfect = {key: form for key, message in load("es").messages.items()
               for form in message.forms if PERFECT.search(form)}
    assert not perfect, perfect


def test_the_tense_check_knows_the_compound_perfect():
    assert PERFECT.search("La ronda 1 ha terminado") and PERFECT.search("Te has unido")
    assert not PERFECT.search("La ronda 1 terminó") and not PERFECT.search("Has de jugar")
