"""The catalogues themselves: complete, consistent, grammatical in every language."""

from __future__ import annotations

import re
import unicodedata

import pytest
from babel import Locale
from babel.messages.pofile import read_po

import i18n
from cogs.embeds import rules_text
from i18n.catalog import load, placeholders, po_path
from i18n.phrases import PHRASE_PLACEHOLDERS

LOCALES = i18n.SUPPORTED_LOCALES
OTHERS = [loc for loc in LOCALES if loc != "en"]


@pytest.fixture(scope="module")
def catalogs():
    return {loc: load(loc) for loc in LOCALES}


@pytest.mark.parametrize("locale", LOCALES)
def test_po_file_is_well_formed(locale):
    # abort_invalid turns Babel's "Problem on line N" warnings into errors.
    with po_path(locale).open("rb") as fh:
        catalog = read_po(fh, locale=locale, abort_invalid=True)
    assert not catalog.fuzzy, "the header is marked fuzzy"
    assert not [m.id for m in catalog if m.id and m.fuzzy], "fuzzy (unconfirmed) entries"


@pytest.mark.parametrize(
    ("locale", "header"),
    [
        ("en", "nplurals=2; plural=(n != 1);"),
        ("cs", "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"),
        ("es", "nplurals=2; plural=(n != 1);"),
    ],
)
def test_plural_forms_header(catalogs, locale, header):
    # Babel re-spaces the expression it parsed; compare without whitespace.
    assert catalogs[locale].plural_forms_header.replace(" ", "") == header.replace(" ", "")


# The order of CLDR categories in each language's gettext forms.
GETTEXT_ORDER = {"en": ("one", "other"), "cs": ("one", "few", "other"), "es": ("one", "other")}


@pytest.mark.parametrize("locale", LOCALES)
def test_plural_header_agrees_with_cldr(catalogs, locale):
    """The catalogue's gettext rule picks the same form as CLDR for every whole number."""
    cldr = Locale.parse(locale).plural_form
    order = GETTEXT_ORDER[locale]
    for n in range(0, 2001):
        category = cldr(n)
        # Spanish CLDR has "many" only for exact millions; gettext has no such form.
        expected = order.index(category) if category in order else order.index("other")
        assert catalogs[locale].plural_index(n) == expected, (locale, n, category)


@pytest.mark.parametrize("locale", OTHERS)
def test_no_key_missing(catalogs, locale):
    missing = sorted(set(catalogs["en"].messages) - set(catalogs[locale].messages))
    assert not missing, (
        f"{locale} lacks: {missing}. Run `python -m i18n.sync` and translate them in "
        f"i18n/locales/{locale}/LC_MESSAGES/lamabot.po, using the glossary "
        f"(i18n/glossary/{locale}.toml) and `{{card.acc}}` where a card is an object; "
        "docs/languages-and-cards.md says how"
    )


@pytest.mark.parametrize("locale", OTHERS)
def test_no_key_unknown_to_english(catalogs, locale):
    extra = sorted(set(catalogs[locale].messages) - set(catalogs["en"].messages))
    assert not extra, f"{locale} has keys English lacks: {extra}"


@pytest.mark.parametrize("locale", LOCALES)
def test_plural_shape(catalogs, locale):
    cat = catalogs[locale]
    for key, msg in cat.messages.items():
        assert msg.plural == catalogs["en"].messages[key].plural, key
        if msg.plural:
            assert len(msg.forms) == cat.nplurals, key


@pytest.mark.parametrize("locale", LOCALES)
def test_placeholders_match_english(catalogs, locale):
    """Every form of every message uses exactly the placeholders of the English message."""
    problems = []
    for key, en_msg in catalogs["en"].messages.items():
        expected = set().union(*(placeholders(f) for f in en_msg.forms))
        translated = catalogs[locale].messages.get(key)  # absent: test_no_key_missing says so
        for index, form in enumerate(translated.forms if translated else ()):
            if placeholders(form) != expected:
                problems.append((key, index, sorted(placeholders(form)), sorted(expected)))
    assert not problems


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_formats(catalogs, locale):
    """No stray braces, every form fits in one Discord message once filled."""
    for key, msg in catalogs["en"].messages.items():
        params = _dummy(msg)
        for n in (0, 1, 2, 5):
            text = i18n.t(key, locale, count=n if msg.plural else None, **params)
            assert "{" not in text and "}" not in text, key
            assert 0 < len(text) <= 2000, key


PLURAL_CASES = {
    "cs": {
        "cards.count": ["0 karet", "1 karta", "2 karty", "5 karet", "21 karet", "22 karet"],
        "token.black": [
            "0 černých žetonů", "1 černý žeton", "2 černé žetony",
            "5 černých žetonů", "21 černých žetonů", "22 černých žetonů",
        ],
        "token.white": [
            "0 bílých žetonů", "1 bílý žeton", "2 bílé žetony",
            "5 bílých žetonů", "21 bílých žetonů", "22 bílých žetonů",
        ],
        "points.count": ["0 bodů", "1 bod", "2 body", "5 bodů", "21 bodů", "22 bodů"],
        "card.llama.count": ["0 lam", "1 lama", "2 lamy", "5 lam", "21 lam", "22 lam"],
        "card.llama.count.komarami": [
            "0 komárů", "1 komár", "2 komáři", "5 komárů", "21 komárů", "22 komárů",
        ],
    },
    "es": {
        "cards.count": ["0 cartas", "1 carta", "2 cartas", "5 cartas", "21 cartas", "22 cartas"],
        "token.pink": [
            "0 fichas rosas", "1 ficha rosa", "2 fichas rosas",
            "5 fichas rosas", "21 fichas rosas", "22 fichas rosas",
        ],
        "points.count": ["0 puntos", "1 punto", "2 puntos", "5 puntos", "21 puntos", "22 puntos"],
    },
    "en": {
        "cards.count": ["0 cards", "1 card", "2 cards", "5 cards", "21 cards", "22 cards"],
        "token.white": [
            "0 white tokens", "1 white token", "2 white tokens",
            "5 white tokens", "21 white tokens", "22 white tokens",
        ],
    },
}
COUNTS = (0, 1, 2, 5, 21, 22)


@pytest.mark.parametrize(
    ("locale", "key"), [(loc, key) for loc, cases in PLURAL_CASES.items() for key in cases]
)
def test_plural_forms_are_grammatical(locale, key):
    got = [i18n.t(key, locale, count=n) for n in COUNTS]
    assert got == PLURAL_CASES[locale][key]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_plural_message_covers_the_test_counts(catalogs, locale):
    """Each plural message gives each count its own language's form (not English's)."""
    cat = catalogs[locale]
    for key, msg in cat.messages.items():
        if not msg.plural:
            continue
        for n in COUNTS:
            assert i18n.t(key, locale, count=n, **_dummy(msg)) == msg.forms[
                cat.plural_index(n)
            ].format(count=n, **_dummy(msg))


def _dummy(msg):
    """A value for each placeholder: a phrase for those code fills with one ({card.acc})."""
    names = {n for f in msg.forms for n in placeholders(f)} - {"count"}
    return {n: PHRASE if n in PHRASE_PLACEHOLDERS else "X" for n in names}


PHRASE = i18n.Phrase.plain("X")


# ---- application commands --------------------------------------------------------------------

def _valid_command_name(name: str) -> bool:
    """Discord: ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase where it applies."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)


def test_command_name_checker_itself():
    assert _valid_command_name("přidat-se")
    assert _valid_command_name("estadísticas")
    assert not _valid_command_name("Play")
    assert not _valid_command_name("two words")
    assert not _valid_command_name("x" * 33)
    assert not _valid_command_name("")


@pytest.mark.parametrize("locale", LOCALES)
def test_command_and_option_names_are_valid(locale):
    names = [k for k in i18n.message_keys() if k.startswith("cmd.") and k.endswith(".name")]
    assert len(names) > 20
    bad = [(k, i18n.t(k, locale)) for k in names if not _valid_command_name(i18n.t(k, locale))]
    assert not bad


@pytest.mark.parametrize("locale", LOCALES)
def test_command_names_are_unique(locale):
    commands = [
        i18n.t(k, locale)
        for k in i18n.message_keys()
        if k.startswith("cmd.") and k.endswith(".name") and not k.startswith("cmd.option.")
    ]
    assert len(commands) == len(set(commands))
    options = [i18n.t(k, locale) for k in i18n.message_keys() if k.startswith("cmd.option.")]
    assert len(options) == len(set(options))


@pytest.mark.parametrize("locale", LOCALES)
def test_descriptions_fit_discord(locale):
    for key in i18n.message_keys():
        if key.startswith("cmd.") and key.endswith(".description"):
            assert 1 <= len(i18n.t(key, locale)) <= 100, key


CHOICE_PREFIXES = ("variant.", "ai.level.", "stats.period.", "leaderboard.sort.", "language.name.")


@pytest.mark.parametrize("locale", LOCALES)
def test_choice_names_fit_discord(locale):
    for key in i18n.message_keys():
        if key.startswith(CHOICE_PREFIXES) and not key.endswith(".description"):
            assert 1 <= len(i18n.t(key, locale)) <= 100, key


@pytest.mark.parametrize("locale", LOCALES)
def test_play_hints_fit_a_choice_even_naming_the_longest_name(locale):
    """The card autocomplete's explanation is a choice: at most 100 characters, with a
    display name of Discord's longest (32) as {name}."""
    longest = "W" * 32
    hints = [k for k in i18n.message_keys() if k.startswith("play.hint.")]
    assert hints
    for key in hints:
        assert 1 <= len(i18n.t(key, locale, name=longest)) <= 100, key


@pytest.mark.parametrize("locale", LOCALES)
def test_the_turn_ping_links_the_table_under_its_words_not_a_bare_address(locale):
    url = "https://discord.com/channels/1/2/3"
    text = i18n.t("hand.turn_ping", locale, table=url)
    assert re.search(rf"\[[^\]]+\]\({re.escape(url)}\)", text), text


def test_every_command_has_name_and_description():
    commands = {k.split(".")[1] for k in i18n.message_keys() if k.startswith("cmd.")} - {"option"}
    for command in commands:
        assert i18n.has_key(f"cmd.{command}.name"), command
        assert i18n.has_key(f"cmd.{command}.description"), command
    for key in i18n.message_keys():
        if ".option." in key and key.startswith("cmd.") and not key.startswith("cmd.option."):
            option = key.split(".")[3]
            assert i18n.has_key(f"cmd.option.{option}.name"), key


# ---- rules ----------------------------------------------------------------------------------

DECK = {"classic": "56", "party": "56", "komarami": "55"}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", i18n.VARIANTS)
def test_rules_fit_and_state_the_facts(locale, variant):
    text = rules_text(variant, locale)
    assert 500 < len(text) <= 1800
    assert DECK[variant] in text and "40" in text and "10" in text
    lowered = text.lower()
    party = variant == "party"
    assert ("6+" in text) == party, "plus cards are Party only"
    assert (i18n.card_name("P", "party", locale) in lowered) == party
    mosquito = i18n.card_name("L", "komarami", locale)
    assert (mosquito in lowered) == (variant == "komarami")


def test_game_words_per_language():
    assert i18n.card_name("P", "party", "cs") == "růžová lama"
    assert i18n.t("action.quit", "cs") == "Odstoupit"
    assert i18n.t("token.label", "cs") == "Žetony"
    assert i18n.t("token.label", "es") == "Fichas"
    assert i18n.t("action.quit", "es") == "Plantarse"
    assert i18n.card_name("L", "komarami", "cs") == "komár"


@pytest.mark.parametrize("locale", OTHERS)
def test_translated_names_join_words_one_way(locale):
    """Czech and Spanish command and option names use "-" between words, never "_"."""
    names = {k: i18n.t(k, locale) for k in i18n.message_keys()
             if k.startswith("cmd.") and k.endswith(".name")}
    mixed = {k: n for k, n in names.items() if "_" in n}
    assert not mixed, f"write these with '-': {mixed}"
