"""A button's custom id, declared once: its kind and a list of fields.

From the one list come both the regex a press is matched with (discord.py's `DynamicItem`
template) and the id a new button is made with, so the two can never drift apart:

    HAND_ID = CustomId("h", number("game"), number("round"), number("owner"),
                       one_of("action", "1", "draw", ...))
    HAND_ID.template      # lama:h:(?P<game>\\d+):(?P<round>\\d+):...
    HAND_ID.make(12, 3, 42, "draw")  # lama:h:12:3:42:draw

The database a button was made with goes right after its kind (`LamaButton` puts it in both).
`longest()` is the longest id the layout allows, for the check that each stays within
Discord's 100 characters (tests/cogs/test_custom_ids.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

LARGEST_ID = 2**63 - 1  # the store's ids, and Discord's snowflakes, are signed 64-bit numbers
CUSTOM_ID_LIMIT = 100  # Discord's limit on a component's custom id


@dataclass(frozen=True)
class Field:
    """One part of a custom id: its name (the regex group), what it matches, and its
    longest value. An optional field, written after `mark`, may be absent (an older button
    lacks it); only the last fields may be."""

    name: str
    pattern: str
    longest: str
    is_number: bool = False
    optional: bool = False
    mark: str = ""

    def regex(self) -> str:
        group = f"{re.escape(self.mark)}(?P<{self.name}>{self.pattern})"
        return f"(?::{group})?" if self.optional else group

    def value(self, match: re.Match[str]) -> Any:
        found = match[self.name]
        if found is None:
            return None
        return int(found) if self.is_number else found


def number(
    name: str, *, optional: bool = False, mark: str = "", largest: int = LARGEST_ID
) -> Field:
    """A whole number (a game, a round, a user…), digits only; `largest` is the largest it
    is ever made with (an id or a snowflake, unless it says less: a page number)."""
    return Field(name, r"\d+", str(largest), is_number=True, optional=optional, mark=mark)


def one_of(name: str, *choices: str) -> Field:
    """One word out of `choices`."""
    return Field(name, "|".join(map(re.escape, choices)), max(choices, key=len))


class CustomId:
    """`lama:<kind>:<field>:<field>…`: what a button acts on, in a fixed order."""

    def __init__(self, kind: str, *fields: Field) -> None:
        required = [f for f in fields if not f.optional]
        if not required or list(fields[:len(required)]) != required:
            raise ValueError(f"lama:{kind}: a required field first, the optional ones last")
        self.kind = f"lama:{kind}:"
        self.fields = fields
        self.template = self.kind + ":".join(f.regex() for f in required) + "".join(
            f.regex() for f in fields[len(required):])

    def make(self, *values: object) -> str:
        """The id of the button acting on `values` (one per field, in order; None for an
        optional field left out)."""
        if len(values) != len(self.fields):
            raise TypeError(f"{self.kind} takes {len(self.fields)} values, not {len(values)}")
        return self.kind + ":".join(_parts(self.fields, values))

    def prefix(self, *values: object) -> str:
        """What every id whose first fields hold `values` starts with: the rest is added
        after it (a hand's buttons differ in their last field only)."""
        if len(values) >= len(self.fields):
            raise TypeError(f"{self.kind}: a prefix leaves at least one field out")
        return self.kind + "".join(f"{part}:" for part in _parts(self.fields, values))

    def values(self, match: re.Match[str]) -> tuple[Any, ...]:
        """The values a matched id carries, in the order `make` takes them."""
        return tuple(f.value(match) for f in self.fields)

    def longest(self) -> str:
        """The longest id this layout allows (before the database is put in)."""
        return self.make(*(f.longest for f in self.fields))


def _parts(fields: tuple[Field, ...], values: tuple[object, ...]) -> list[str]:
    """Each field's text, an optional one left out where its value is None."""
    parts = []
    for field, value in zip(fields, values, strict=False):
        if value is None and not field.optional:
            raise TypeError(f"{field.name} is not optional")
        if value is not None:
            parts.append(f"{field.mark}{value}")
    return parts
