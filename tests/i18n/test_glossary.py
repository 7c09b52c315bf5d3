"""Each catalogue speaks its glossary: one word for each game term, in the right case.

i18n/glossary/<locale>.toml lists every term (cards, tokens, actions, variants) with its forms;
a new term, a new case form or a stray synonym fails here with what to add or change.
"""

from __future__ import annotations

import re

import pytest

import i18n
from i18n.catalog import case_fields, load
from i18n.glossary import glossary, glossary_path
from i18n.phrases import PHRASE_PLACEHOLDERS

LOCALES = i18n.SUPPORTED_LOCALES
_VARIANTS = "|".join(i18n.VARIANTS)
# The catalogue keys that name a game term: each needs its glossary entry.
TERM_KEY = re.compile(
    r"^(card\.(llama|pink_llama|number|plus)(\.komarami)?|token\.kind\.\w+|token\.label"
    rf"|action\.(play|draw|quit)|variant\.({_VARIANTS}))$"
)


def terms(locale: str) -> dict:
    return glossary(locale)["terms"]


def texts(catalog):
    """Every text of a catalogue: (key, text) for each form and each case form."""
    for key, message in catalog.messages.items():
        for form in message.forms:
            yield key, form
    for (case, key), message in catalog.inflections.items():
        yield f"{key} ({case})", message.forms[0]


def words_of(text: str) -> str:
    """The text a reader sees, without its {placeholders}."""
    return re.sub(r"\{[^{}]*\}", " ", text)


def count_key(key: str) -> str:
    """card.llama → card.llama.count; card.llama.komarami → card.llama.count.komarami."""
    base, _, last = key.rpartition(".")
    return f"{base}.count.{last}" if last in i18n.VARIANTS else f"{key}.count"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_game_term_is_in_the_glossary(locale):
    missing = sorted(k for k in i18n.message_keys() if TERM_KEY.match(k) and k not in terms(locale))
    assert not missing, (
        f"add these game terms to {glossary_path(locale)} (nom, and acc/count if the term "
        f"has them): {missing}"
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_the_catalogue_names_each_term_as_the_glossary_does(locale):
    catalog = load(locale)
    wrong = []
    for key, term in terms(locale).items():
        message = catalog.messages.get(key)
        if message is None or message.forms[0] != term["nom"]:
            wrong.append((key, message.forms[0] if message else None, term["nom"]))
        for case in i18n.CASES:
            if case == "nom" or case not in term:
                continue
            form = catalog.inflections.get((case, key))
            if form is None or form.forms[0] != term[case]:
                wrong.append((f"{key} ({case})", form.forms[0] if form else None, term[case]))
        if "count" in term:
            counted = catalog.messages.get(count_key(key))
            forms = list(counted.forms) if counted else None
            if forms != term["count"]:
                wrong.append((count_key(key), forms, term["count"]))
    assert not wrong, f"catalogue vs {glossary_path(locale)} (key, catalogue, glossary): {wrong}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_case_form_is_a_glossary_term(locale):
    """A `msgctxt` form belongs to a term the glossary knows, in a case code can ask for."""
    problems = []
    for case, key in load(locale).inflections:
        if case not in i18n.CASES:
            problems.append(f"{key}: msgctxt {case!r} is not one of i18n.CASES {i18n.CASES}")
        elif case not in terms(locale).get(key, {}):
            problems.append(f"{key}: add its {case!r} form to {glossary_path(locale)}")
    assert not problems


@pytest.mark.parametrize("locale", LOCALES)
def test_no_message_uses_a_word_the_glossary_avoids(locale):
    catalog = load(locale)
    avoided = [(word, key, term) for key, term in terms(locale).items() for word in
               term.get("avoid", ())]
    avoided += [(word, name, {"nom": entry["word"]})
                for name, entry in glossary(locale).get("words", {}).items()
                for word in entry.get("avoid", ())]
    found = [
        f"{where}: {word!r} — {glossary_path(locale).name} calls {key} {term['nom']!r}"
        for where, text in texts(catalog)
        for word, key, term in avoided
        if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", words_of(text), re.IGNORECASE)
    ]
    assert not found


@pytest.mark.parametrize("locale", LOCALES)
def test_case_forms_are_asked_only_of_phrases(locale):
    """`{card.acc}` works because code passes a Phrase for card, top and token; `{name.acc}`
    or `{card.gen}` would fail at run time."""
    problems = [
        f"{key}: {{{root}.{case}}}"
        for key, text in texts(load(locale))
        for root, case in case_fields(text)
        if root not in PHRASE_PLACEHOLDERS or case not in i18n.CASES
    ]
    assert not problems, f"only {sorted(PHRASE_PLACEHOLDERS)} take cases {i18n.CASES}"


def test_the_glossary_check_catches_a_synonym(monkeypatch):
    """Not vacuous: "carta más" for the plus card is caught in a Spanish text."""
    text = "{name} juega una carta más: ¡vuelve a jugar!"
    word = "carta más"
    assert word in terms("es")["card.plus"]["avoid"]
    assert re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE)


# ------------------------------------------------------------------ nobody is given a gender

GENDERED_LOCALES = ("cs", "es")  # English role words ("host", "player") fit anyone


def gendered_forms_in(text: str, locale: str) -> list[str]:
    """The [gendered] words and patterns of a language's glossary that a text uses."""
    section = glossary(locale)["gendered"]
    found = [word for word in section["words"]
             if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", words_of(text), re.IGNORECASE)]
    return found + [p for p in section["patterns"] if re.search(p, text, re.IGNORECASE)]


@pytest.mark.parametrize("locale", GENDERED_LOCALES)
def test_no_message_gives_the_reader_or_a_player_a_gender(locale):
    """Players are of any gender: a role is said by what someone does ("{name} pořádá hru",
    "quien organiza"), never by a noun or a participle that is a man's or a woman's."""
    found = [f"{key}: {hits}" for key, text in texts(load(locale))
             if (hits := gendered_forms_in(text, locale))]
    assert not found, f"reword these, see [gendered] in {glossary_path(locale).name}"


@pytest.mark.parametrize(
    ("locale", "text"),
    [
        ("cs", "{number}. {name} (zakladatel)"),
        ("cs", "To může jen organizátor ({name})."),
        ("cs", "Už jsi přihlášený."),
        ("cs", "Odešel jsi ze hry."),
        ("cs", "Čeká se na hráče {name}…"),
        ("es", "{number}. {name} (anfitrión)"),
        ("es", "Listo: el anfitrión puede empezar."),
        ("es", "Ya estás inscrito."),
        ("es", "Has sido expulsado de la partida."),
        ("cs", "Hru spustí, až budou všichni sedět."),
        ("es", "Todos se han plantado."),
        ("es", "Todos los demás se han plantado, así que no puedes robar."),
        ("es", "¡Suerte a todos!"),
        ("es", "Gana quien tenga menos puntos; los empatados comparten la victoria."),
        ("es", "Siguiente ronda: si nadie, el último en plantarse."),
        ("cs", "Nejde to, když všichni ostatní odstoupili."),
    ],
)
def test_the_gender_check_catches_the_old_labels(locale, text):
    """Not vacuous: each wording players reported is caught."""
    assert gendered_forms_in(text, locale)


@pytest.mark.parametrize(
    ("locale", "text"),
    [("cs", "{mention}, jsi na tahu!"), ("cs", "Hru pořádá {name}."),
     ("es", "Ya estás jugando en {channel}."), ("es", "Ya te inscribiste."),
     ("es", "Todos los pasos ({count})"), ("es", "Todas las variantes"),
     ("es", "Borra tus estadísticas en todas partes"), ("es", "Ya nadie sigue en la ronda."),
     ("es", "Todas las mesas se juegan a la vez, cada una en su propio hilo.")],
)
def test_the_gender_check_lets_neutral_wording_through(locale, text):
    assert not gendered_forms_in(text, locale)
