"""The web pages' words for member-chosen names: `Words.isolate` keeps a name's writing
direction inside it, however the name itself is made. A name may carry isolate controls of
its own; a stray U+2069 (POP DIRECTIONAL ISOLATE) in it would close the page's isolate early
and let a U+202E after it turn the rest of the title or sentence around, and an isolate it
opens and never closes would swallow our closing one. The bot's messages balance such names
(cogs.text.member_text); the site must too."""

from __future__ import annotations

import pytest

from tests.support.e2e import assert_isolates_balanced, isolate_depths
from web.words import Words

RLO = "\u202e"


@pytest.mark.parametrize("name", [
    f"\u2069{RLO}Lukas",  # a stray pop, then an override: would run past the name
    f"Lukas\u2069\u2069{RLO}",
    f"\u2067Lukas{RLO}",  # an isolate opened and never closed
    f"\u2066a\u2069\u2069{RLO}b\u2068",
])
def test_a_name_with_isolates_of_its_own_stays_inside_the_isolate(name):
    text = f"{Words.isolate(name)} · LamaBot"
    assert_isolates_balanced(text)
    depths = isolate_depths(text)
    assert all(depths[i] >= 1 for i, char in enumerate(text) if char == RLO), repr(text)
    assert depths[text.index(" · ")] == 0  # what follows the name is outside it


def test_a_plain_name_is_only_wrapped():
    assert Words.isolate("Lukas") == "\u2068Lukas\u2069"
