"""Every link a message carries is a masked link, `[words](url)`, in every language (issue 34):
a bare URL reads as noise ("You already have a seat in the rematch: https://discord.com/…").

A placeholder a message fills with a URL is one named like a link (`{link}`, `{url}`), or one
the message (in any language) uses as a masked link's target: in every language it may then
only stand inside `](…)`. No message writes an address of its own outside a masked link."""

from __future__ import annotations

import re

import pytest

import i18n
from i18n.catalog import load, placeholders

LOCALES = i18n.SUPPORTED_LOCALES
MASKED = re.compile(r"\[[^\[\]]+\]\((\{[^{}()]+\})\)")  # [words]({placeholder})
LINK_NAMED = re.compile(r"(^|_)(link|url)$")


@pytest.fixture(scope="module")
def catalogs():
    return {loc: load(loc) for loc in LOCALES}


def link_placeholders(key: str, catalogs) -> set[str]:
    """The placeholders of `key` that hold a URL."""
    named, targets = set(), set()
    for catalog in catalogs.values():
        message = catalog.messages.get(key)
        for form in message.forms if message else ():
            named |= {p for p in placeholders(form) if LINK_NAMED.search(p)}
            for target in MASKED.findall(form):
                targets |= placeholders(target)
    return named | targets


def bare_links(text: str, links: set[str]) -> list[str]:
    """What `text` shows as a bare address: a link placeholder or an http(s) address left
    once its masked links are taken out."""
    rest = MASKED.sub("", text)
    rest = re.sub(r"\[[^\[\]]+\]\(https?://[^\s()]+\)", "", rest)  # a masked literal address
    found = [f"{{{p}}}" for p in placeholders(rest) if p in links]
    return found + re.findall(r"https?://\S+", rest)


@pytest.mark.parametrize("locale", LOCALES)
def test_no_message_shows_a_bare_link(catalogs, locale):
    bare = {}
    for key, message in catalogs[locale].messages.items():
        links = link_placeholders(key, catalogs)
        for form in message.forms:
            if found := bare_links(form, links):
                bare[key] = (found, form)
    assert not bare, bare


def test_the_check_knows_a_bare_link_when_it_sees_one():
    assert bare_links("Rematch: {link}", {"link"}) == ["{link}"]
    assert bare_links("Rematch: https://discord.com/x", set()) == ["https://discord.com/x"]
    assert bare_links("[The rematch]({link}) is open.", {"link"}) == []
    assert bare_links("Table {table} is over.", {"link"}) == []


@pytest.mark.parametrize("key", ["error.game_exists_here", "error.already_in_rematch",
                                 "lobby.rematch_opened", "error.rematch_exists",
                                 "settings.web.public_link", "settings.web.private_link"])
@pytest.mark.parametrize("locale", LOCALES)
def test_the_links_of_the_issue_are_masked(catalogs, key, locale):
    """The messages issue 34 found showing bare URLs; each one carries its link."""
    message = catalogs[locale].messages[key]
    for form in message.forms:
        assert MASKED.search(form), form
