"""Member-chosen text kept in its own writing direction: between Unicode's first-strong isolate
and its pop (U+2068 … U+2069), the text takes the direction of its own first strong letter and
leaves the rest of the line alone (UAX #9, X5c and X6a), a right-to-left name or a U+202E
override in it included. The bot's messages (cogs.text.member_text) and the web pages
(web.words) isolate names with these, so both balance what a name holds alike.

    >>> isolate("\\u2069\\u202eLukas") == "\\u2068\\u202eLukas\\u2069"
    True
"""

from __future__ import annotations

FSI, PDI = "\u2068", "\u2069"
OPENERS = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI: each closed by a PDI


def balanced(text: str) -> str:
    """`text` with its own isolates balanced: a U+2069 that closes nothing of its own is
    dropped (it would close an isolate around the text early), and one it opens is closed at
    its end (else it would swallow the closing one around it)."""
    kept, open_isolates = [], 0
    for char in text:
        if char in OPENERS:
            open_isolates += 1
        elif char == PDI:
            if not open_isolates:
                continue
            open_isolates -= 1
        kept.append(char)
    return "".join(kept) + PDI * open_isolates


def isolate(text: str) -> str:
    """`text` between U+2068 and U+2069, its own isolates balanced inside them."""
    return f"{FSI}{balanced(text)}{PDI}"
