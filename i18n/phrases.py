"""Game terms ready for a sentence: a card or a token in the grammatical case it needs.

Czech declines nouns ("hraje lamu", "na komára"); Spanish and English put an article before
a card in running text ("juega una llama", "played a llama"). Code never edits words: it
passes a :class:`Phrase`, and each translation picks the form its sentence needs::

    {card}      the label: emoji + name in the nominative ("🦙 lama"), for lists and after ":"
    {card.nom}  the name alone, nominative: "lama", "llama", "llama" — a sentence's subject
    {card.acc}  the object form: "lamu", "una llama", "a llama" — after a verb or "na"/"sobre"

The forms come from the catalogue: ``msgctxt "acc"`` entries of the name's key (a form a
language lacks falls back to its own nominative). The cases are listed in :data:`CASES`;
i18n/glossary/<locale>.toml records every term's forms and the tests hold both together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from i18n.core import has_key, translate

# Grammatical cases a message may ask a phrase for, as `{card.acc}`; the msgctxt of their forms.
CASES: tuple[str, ...] = ("nom", "acc")
# The placeholders code fills with a Phrase (so a translation may write `{top.acc}`).
PHRASE_PLACEHOLDERS: frozenset[str] = frozenset({"card", "top", "token"})
VARIANTS: tuple[str, ...] = ("classic", "party", "komarami")

# Card codes as the engine writes them → the catalogue key of their name.
_CARD_KEYS = {"L": "card.llama", "P": "card.pink_llama"}


@dataclass(frozen=True)
class Phrase:
    """A term in every case a message may ask for; formats as its label.

    ``phrase.acc`` (and ``{card.acc}`` in a message) is its form in that case; a case missing
    from ``forms`` is an AttributeError, which :func:`i18n.translate` reports.
    """

    label: str
    forms: Mapping[str, str]  # case (one of CASES) -> the term in that case

    @classmethod
    def plain(cls, text: str) -> Phrase:
        """Text that reads the same in every case (an unknown card shown as "?")."""
        return cls(text, {case: text for case in CASES})

    def __getattr__(self, case: str) -> str:
        if case.startswith("_") or case == "forms":  # not a case: copy, pickle, dataclasses
            raise AttributeError(case)
        try:
            return self.forms[case]
        except KeyError:
            raise AttributeError(f"{self.label!r} has no {case!r} form") from None

    def __str__(self) -> str:
        return self.label

    def __format__(self, spec: str) -> str:
        return format(self.label, spec)


def translate_variant(
    key: str, variant: str, locale: str, count: int | None = None, *, case: str | None = None,
    **params: object,
) -> str:
    """Like :func:`translate`, but prefers ``key.<variant>`` when it exists.

    Lato z Komarami calls llamas mosquitoes, so ``card.llama.komarami`` overrides
    ``card.llama`` for that variant only.
    """
    specific = f"{key}.{variant}"
    chosen = specific if has_key(specific) else key
    return translate(chosen, locale, count, case=case, **params)


def _card_key(code: str) -> tuple[str, str]:
    if code in _CARD_KEYS:
        return _CARD_KEYS[code], ""
    if len(code) == 2 and code[1] == "+" and code[0] in "123456":
        return "card.plus", code[0]
    if len(code) == 1 and code in "123456":
        return "card.number", code
    raise ValueError(f"unknown card code {code!r}")


def card_name(
    code: str, variant: str, locale: str, count: int | None = None, *, case: str | None = None
) -> str:
    """The name of an engine card code ("1".."6", "1+".."6+", "L", "P") in this variant.

    With ``count``, the counted form ("2 lamy", "5 karet" style); with ``case``, that case's
    form ("lamu"); with neither, the bare name.
    """
    key, value = _card_key(code)
    if count is not None:
        key += ".count"
    return translate_variant(key, variant, locale, count, case=case, value=value)


def corner_letters(locale: str) -> dict[str, str]:
    """The letter in the corner of each llama-like card face in this language: "llama",
    "pink_llama" and "mosquito" (Lato z Komarami's llama) → "L", "R", "K" in Czech. Plain
    strings, for `cardart.CornerLetters(**corner_letters(locale))`."""
    return {
        "llama": translate_variant("card.letter.llama", "classic", locale),
        "pink_llama": translate_variant("card.letter.pink_llama", "party", locale),
        "mosquito": translate_variant("card.letter.llama", "komarami", locale),
    }


def card_phrase(code: str, variant: str, locale: str, emoji: str = "") -> Phrase:
    """A card for a message: label "<emoji> <name>", and its name in every case."""
    forms = {case: card_name(code, variant, locale, case=case) for case in CASES}
    nom = forms["nom"]
    return Phrase(label=f"{emoji} {nom}" if emoji else nom, forms=forms)


def token_phrase(kind: str, locale: str) -> Phrase:
    """A token kind ("white", "black", "pink") with its value: "černý žeton (10)"."""
    key = f"token.kind.{kind}"
    forms = {case: translate(key, locale, case=case) for case in CASES}
    return Phrase(label=forms["nom"], forms=forms)
