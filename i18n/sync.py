"""Keep the Czech and Spanish catalogues in step with English: ``python -m i18n.sync``.

For every key in the English catalogue: add it to the other catalogues if absent (untranslated,
so English is shown until a translator fills it in), and refresh the ``#. en:`` comment that
shows translators the English text. Keys English no longer has are reported, not deleted.
Run with ``--check`` (used by the tests) to only report whether anything would change.
"""

from __future__ import annotations

import io
import re
import sys

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import write_po

from i18n.catalog import po_path, read_catalog

EN_PREFIX = "en: "
# Flags saying who reads a message (see docs/languages-and-cards.md), copied from English.
MARKERS = frozenset({"public", "addressed"})


def _english(message: Message) -> str:
    string = message.string  # a plural's forms, or one text
    return " | ".join(string) if isinstance(string, tuple | list) else string or ""


def _name(message: Message) -> str:
    key = message.id if isinstance(message.id, str) else message.id[0]
    return f"{key} ({message.context})" if message.context else key


def synced_text(locale: str, english: Catalog) -> tuple[str, list[str]]:
    catalog = read_catalog(locale)
    for en_msg in english:
        if not en_msg.id:
            continue
        note = EN_PREFIX + _english(en_msg)
        ours = catalog.get(en_msg.id, context=en_msg.context)
        if ours is None:
            empty = ("",) * catalog.num_plurals if isinstance(en_msg.id, tuple) else ""
            ours = catalog.add(en_msg.id, empty, context=en_msg.context)
        comments = [c for c in en_msg.auto_comments]
        ours.auto_comments = [*comments, note]
        # Who reads a message is English's call (the code decides it): copy the marker.
        ours.flags = (ours.flags - MARKERS) | (en_msg.flags & MARKERS)
    stale = sorted(
        _name(m) for m in catalog if m.id and english.get(m.id, context=m.context) is None
    )
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, no_location=True, sort_output=False)
    text = buf.getvalue().decode("utf-8")
    # Babel adds headers we do not keep; drop them so a no-op sync changes nothing.
    text = re.sub(r'"(Generated-By|Report-Msgid-Bugs-To): [^"]*\\n"\n', "", text)
    return text, stale


def main(argv: list[str]) -> int:
    check = "--check" in argv
    english = read_catalog("en")
    changed = []
    for locale in ("cs", "es"):
        text, stale = synced_text(locale, english)
        for key in stale:
            print(f"{locale}: {key} is not in English any more")
        path = po_path(locale)
        if path.read_text(encoding="utf-8") != text:
            changed.append(locale)
            if not check:
                path.write_text(text, encoding="utf-8")
    if changed:
        print(("out of date: " if check else "updated: ") + ", ".join(changed))
    return 1 if check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
