"""Reading catalogue texts as a native reader would: words, and forms of address.

Shared by the catalogue tests and the end-to-end language tests. The word lists live in each
language's glossary (i18n/glossary/<locale>.toml), so a translator extends them in one place.
"""

from __future__ import annotations

import re

from i18n.glossary import glossary

PLACEHOLDER = re.compile(r"\{[^{}]*\}")
MENTION = re.compile(r"<@!?\d+>")


def words_of(text: str) -> list[str]:
    """The words a reader sees, lowercased, without {placeholders}, mentions or markdown."""
    text = MENTION.sub(" ", PLACEHOLDER.sub(" ", text))
    return re.findall(r"[^\W\d_]+", text.lower())


def _matches(words: list[str], rules: dict) -> list[str]:
    listed = set(rules.get("words", ()))
    endings = tuple(rules.get("endings", ()))
    allowed = set(rules.get("except", ()))
    return [
        w for w in words
        if w in listed or (endings and w.endswith(endings) and w not in allowed and len(w) > 3)
    ]


def singular_you(text: str, locale: str) -> list[str]:
    """The words of ``text`` that speak to one person ("ti", "budeš"; "tu", "puedes")."""
    return _matches(words_of(text), glossary(locale).get("public", {}))


def regional_words(text: str, locale: str) -> list[str]:
    """Words one region of the language's readers would not use (Spanish: vosotros forms)."""
    return _matches(words_of(text), glossary(locale).get("neutral", {}))
