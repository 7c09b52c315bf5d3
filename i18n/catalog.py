"""Loading gettext .po catalogues with Babel and choosing plural forms.

The .po files are read as text at import time (``babel.messages.pofile.read_po``): there is
no compile step, so a fresh checkout works and a translator's edit shows up on restart.
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "lamabot"


@dataclass(frozen=True)
class Message:
    """One translated message: a single text, or one text per plural form."""

    key: str
    forms: tuple[str, ...]
    plural: bool
    flags: frozenset[str] = frozenset()  # e.g. "public": shown to the whole channel


@dataclass(frozen=True)
class LoadedCatalog:
    locale: str
    messages: dict[str, Message]
    nplurals: int
    plural_index: Callable[[int], int]
    plural_forms_header: str
    # (case, key) -> the key's form in that grammatical case: `msgctxt "acc"` entries.
    inflections: dict[tuple[str, str], Message] = field(default_factory=dict)


def po_path(locale: str) -> Path:
    return LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(locale: str) -> Catalog:
    with po_path(locale).open("rb") as fh:
        return read_po(fh, locale=locale, domain=DOMAIN)


def _plural_forms_header(catalog: Catalog) -> str:
    # Babel parses the header but also falls back to its own table when the header is absent;
    # we want exactly what the translator wrote, so read the raw header line.
    for name, value in catalog.mime_headers:
        if name.lower() == "plural-forms":
            return value
    raise ValueError(f"{catalog.locale}: the catalogue has no Plural-Forms header")


def compile_plural_forms(header: str) -> tuple[int, Callable[[int], int]]:
    """Turn ``nplurals=3; plural=(...);`` into (3, function n -> form index).

    ``gettext.c2py`` is the standard library's safe evaluator for gettext's C expressions
    (it rejects anything but arithmetic on ``n``).
    """
    parts = dict(
        part.strip().split("=", 1) for part in header.split(";") if "=" in part
    )
    nplurals = int(parts["nplurals"])
    return nplurals, gettext.c2py(parts["plural"].strip())


def load(locale: str) -> LoadedCatalog:
    catalog = read_catalog(locale)
    header = _plural_forms_header(catalog)
    nplurals, plural_index = compile_plural_forms(header)
    messages: dict[str, Message] = {}
    inflections: dict[tuple[str, str], Message] = {}
    for entry in catalog:
        if not entry.id or entry.fuzzy:
            continue  # the header, and drafts a translator has not confirmed yet
        string = entry.string
        if isinstance(entry.id, str):
            forms: tuple[str, ...] = (string if isinstance(string, str) else "",)
            plural = False
            key = entry.id
        else:
            forms = tuple(string) if isinstance(string, tuple | list) else (string or "",)
            plural = True
            key = entry.id[0]
        if not all(forms):
            continue  # untranslated: fall back to English
        message = Message(key=key, forms=forms, plural=plural, flags=frozenset(entry.flags))
        if entry.context:
            inflections[(entry.context, key)] = message
        else:
            messages[key] = message
    return LoadedCatalog(locale, messages, nplurals, plural_index, header, inflections)


def _fields(text: str) -> list[str]:
    return [name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None]


def placeholders(text: str) -> set[str]:
    """The named ``{placeholders}`` a str.format template uses (``{card.acc}`` counts as card)."""
    return {name.split(".")[0].split("[")[0] for name in _fields(text)}


def case_fields(text: str) -> set[tuple[str, str]]:
    """The ``{name.case}`` fields a template uses: ``{("card", "acc")}`` for "na {card.acc}"."""
    pairs = set()
    for name in _fields(text):
        if "." in name:
            root, attribute = name.split(".", 1)
            pairs.add((root, attribute))
    return pairs
