"""The translate API: locale resolution, plural choice, fallbacks."""

from __future__ import annotations

import dataclasses
import enum

import pytest

import i18n
from i18n import core
from i18n.catalog import Message, load


class FakeDiscordLocale(enum.Enum):
    """Shaped like discord.Locale (an Enum whose value and str() are the code), without discord."""

    czech = "cs"
    spain_spanish = "es-ES"
    latin_american_spanish = "es-419"
    british_english = "en-GB"
    french = "fr"

    def __str__(self) -> str:
        return self.value


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("cs", "cs"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("es_ES.UTF-8", "es"),
        ("CS", "cs"),
        ("fr", "en"),
        ("pt-BR", "en"),
        ("", "en"),
        (None, "en"),
        (FakeDiscordLocale.czech, "cs"),
        (FakeDiscordLocale.latin_american_spanish, "es"),
        (FakeDiscordLocale.spain_spanish, "es"),
        (FakeDiscordLocale.british_english, "en"),
        (FakeDiscordLocale.french, "en"),
    ],
)
def test_resolve_locale(raw, expected):
    assert i18n.resolve_locale(raw) == expected


def test_supported_locales():
    assert set(i18n.SUPPORTED_LOCALES) == {"en", "cs", "es"}
    assert i18n.t is i18n.translate


def test_translate_accepts_discord_locales_directly():
    assert i18n.t("error.not_your_turn.short", "es-419") == "No es tu turno."
    assert i18n.t("error.not_your_turn.short", "ja") == "It's not your turn."


def test_placeholders_are_filled():
    text = i18n.t("error.user_not_in_game", "en", name="Eva")
    assert text == "Eva isn't in this game."


def test_a_phrase_fills_a_placeholder_in_the_case_the_translation_asks_for():
    card = i18n.card_phrase("2", "classic", "cs", emoji="2️⃣")
    top = i18n.card_phrase("L", "classic", "cs", emoji="🦙")
    text = i18n.t("error.card_not_playable", "cs", card=card, top=top, cards="🦙 lama")
    assert text == "Na lamu nejde zahrát 2. Můžeš zahrát: 🦙 lama."
    card, top = i18n.card_phrase("2", "classic", "en"), i18n.card_phrase("L", "classic", "en")
    english = i18n.t("error.card_not_playable", "en", card=card, top=top, cards="🦙 llama")
    assert english == "You can't play a 2 on a llama. You can play: 🦙 llama."


def test_a_plain_string_where_a_case_is_asked_names_the_fix():
    with pytest.raises(TypeError, match=r"i18n\.Phrase"):
        i18n.t("move.played", "en", name="Eva", card="4")


def test_a_case_form_falls_back_to_the_same_languages_nominative(monkeypatch):
    def drop(cat):
        inflections = dict(cat.inflections)
        del inflections[("acc", "card.llama")]
        return dataclasses.replace(cat, inflections=inflections)

    _patched_catalog(monkeypatch, "cs", drop)
    assert i18n.card_name("L", "classic", "cs", case="acc") == "lama"  # not English "a llama"
    assert i18n.card_name("P", "party", "cs", case="acc") == "růžovou lamu"


@pytest.mark.parametrize(
    ("code", "variant", "locale", "acc"),
    [
        ("L", "classic", "cs", "lamu"),
        ("P", "party", "cs", "růžovou lamu"),
        ("L", "komarami", "cs", "komára"),
        ("4", "classic", "cs", "4"),
        ("L", "classic", "es", "una llama"),
        ("L", "komarami", "es", "un mosquito"),
        ("P", "party", "es", "la llama rosa"),
        ("3+", "party", "es", "un 3+"),
        ("L", "classic", "en", "a llama"),
        ("6", "classic", "en", "a 6"),
    ],
)
def test_card_phrase_cases(code, variant, locale, acc):
    phrase = i18n.card_phrase(code, variant, locale, emoji="🂠")
    assert phrase.acc == acc
    assert phrase.nom == i18n.card_name(code, variant, locale)
    assert f"{phrase}" == str(phrase) == f"🂠 {phrase.nom}"  # {card} alone is the label


def test_token_phrase_cases():
    assert i18n.token_phrase("black", "es").acc == "una ficha negra (10)"
    assert i18n.token_phrase("white", "en").acc == "a white token (1)"
    assert i18n.token_phrase("pink", "cs").acc == "růžový žeton (20)"
    assert str(i18n.token_phrase("pink", "cs")) == "růžový žeton (20)"


@pytest.mark.parametrize(
    ("locale", "zero", "share", "decimal"),
    [
        ("cs", "0\u00a0%", "23,5\u00a0%", "23,5"),
        ("es", "0\u00a0%", "23,5\u00a0%", "23,5"),
        ("en", "0%", "23.5%", "23.5"),
    ],
)
def test_numbers_and_percentages_follow_the_locale(locale, zero, share, decimal):
    assert i18n.format_percent(0, locale) == zero
    assert i18n.format_percent(0.2351, locale) == share
    assert i18n.format_decimal(23.54, locale) == decimal
    assert i18n.format_percent(0.5, locale).startswith("50")


def test_or_lists_follow_the_language():
    assert i18n.format_list(["3", "4"], "cs", style="or") == "3 nebo 4"
    assert i18n.format_list(["3", "4"], "es", style="or") == "3 o 4"
    assert i18n.format_list(["3", "4", "5"], "en", style="or") == "3, 4, or 5"


def test_count_is_a_placeholder_and_selector():
    assert i18n.t("table.draw_pile", "cs", count=3) == "Dobírací balíček: 3 karty"
    assert i18n.t("table.seat", "es", count=1, name="Ana") == "Ana: 1 carta"


def test_plural_message_needs_count():
    with pytest.raises(TypeError):
        i18n.t("cards.count", "en")


def test_unknown_key_raises():
    with pytest.raises(i18n.MissingMessage):
        i18n.t("no.such.key", "cs")


def test_user_text_is_not_reinterpreted():
    # A player named "{count}" must come out literally.
    assert i18n.t("move.drew", "en", name="{count}") == "{count} drew a card"


def _patched_catalog(monkeypatch, locale, change):
    real = core._catalog

    def fake(loc):
        cat = real(loc)
        return change(cat) if loc == locale else cat

    monkeypatch.setattr(core, "_catalog", fake)


def _patched(monkeypatch, locale, change):
    def replace_messages(cat):
        return dataclasses.replace(cat, messages=change(dict(cat.messages)))

    _patched_catalog(monkeypatch, locale, replace_messages)


def test_missing_translation_falls_back_to_english(monkeypatch):
    def drop(messages):
        del messages["error.round_over"]
        return messages

    _patched(monkeypatch, "cs", drop)
    assert i18n.t("error.round_over", "cs") == "This round is already over."
    assert i18n.t("error.game_over", "cs") == "Tato hra už skončila."


def test_broken_placeholder_in_translation_falls_back_to_english(monkeypatch):
    def break_it(messages):
        messages["move.played"] = Message("move.played", ("{jmeno} hraje {card}",), False)
        return messages

    _patched(monkeypatch, "cs", break_it)
    card = i18n.card_phrase("4", "classic", "cs")
    assert i18n.t("move.played", "cs", name="Eva", card=card) == "Eva played 4"


def test_untranslated_entries_count_as_missing(tmp_path, monkeypatch):
    po = tmp_path / "xx" / "LC_MESSAGES"
    po.mkdir(parents=True)
    (po / "lamabot.po").write_text(
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "a"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "b"\nmsgstr "draft"\n\n'
        'msgid "c"\nmsgstr "ok"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr("i18n.catalog.LOCALES_DIR", tmp_path)
    assert set(load("xx").messages) == {"c"}


def test_translate_variant_prefers_the_variant_key():
    assert i18n.translate_variant("card.llama", "komarami", "es") == "mosquito"
    assert i18n.translate_variant("card.llama", "classic", "es") == "llama"
    assert i18n.translate_variant("card.llama.count", "komarami", "cs", count=5) == "5 komárů"


def test_corner_letters_name_each_llama_like_face_in_the_language():
    """The letters cardart draws in the corners: K for komár, R for růžová / rosa."""
    assert i18n.corner_letters("en") == {"llama": "L", "pink_llama": "P", "mosquito": "M"}
    assert i18n.corner_letters("cs") == {"llama": "L", "pink_llama": "R", "mosquito": "K"}
    assert i18n.corner_letters("es") == {"llama": "L", "pink_llama": "R", "mosquito": "M"}


@pytest.mark.parametrize(
    ("code", "variant", "locale", "name"),
    [
        ("1", "classic", "en", "1"),
        ("6", "komarami", "cs", "6"),
        ("4+", "party", "en", "4+"),
        ("L", "classic", "en", "llama"),
        ("L", "party", "cs", "lama"),
        ("L", "komarami", "en", "mosquito"),
        ("P", "party", "en", "pink llama"),
        ("P", "party", "es", "llama rosa"),
    ],
)
def test_card_name(code, variant, locale, name):
    assert i18n.card_name(code, variant, locale) == name


@pytest.mark.parametrize("junk", ["", "7", "0", "7+", "LL", "l", "++", "X"])
def test_card_name_rejects_junk(junk):
    with pytest.raises(ValueError):
        i18n.card_name(junk, "classic", "en")


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "Ana, Bob, and Eva"), ("cs", "Ana, Bob a\u00a0Eva"), ("es", "Ana, Bob y Eva")],
)
def test_format_list(locale, expected):
    assert i18n.format_list(["Ana", "Bob", "Eva"], locale) == expected


def test_a_phrase_has_exactly_the_cases_code_may_ask_for():
    phrase = i18n.card_phrase("L", "classic", "cs")
    assert set(phrase.forms) == set(i18n.CASES)
    with pytest.raises(AttributeError):
        phrase.gen  # noqa: B018 - no genitive (yet): a message asking for it falls back
    assert i18n.Phrase.plain("?").acc == "?"
