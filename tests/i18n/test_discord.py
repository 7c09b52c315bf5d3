"""Slash commands registered in Czech and Spanish, and game text whose counts are grammatical.

The registration payload is what Discord receives (`PUT /applications/{id}/commands` on the
loopback Discord): every command, subcommand, option and choice must carry Czech and Spanish
names and descriptions that Discord would accept.
"""

from __future__ import annotations

import asyncio
import unicodedata

import pytest
from discord import Locale, app_commands

import i18n
from cogs.embeds import rules_text
from cogs.table_view import status_lines
from cogs.translator import LamaTranslator, message_key
from hosting.views import GameOptions, GameView, SeatView, Status

LOCALES = {"cs": "cs", "es-ES": "es", "es-419": "es"}
PUT_COMMANDS = "PUT /applications/{application_id}/commands"


def registered_commands(fake) -> list[dict]:
    calls = fake.rest_calls(PUT_COMMANDS)
    assert calls, "the bot never registered its commands"
    return calls[-1].body


def walk(commands: list[dict], path: tuple[str, ...] = ()):
    """(path, entry, kind) for every command, subcommand, option and choice."""
    for command in commands:
        here = (*path, command["name"])
        option_type = command.get("type", 1)
        kind = "command" if not path or option_type in (1, 2) else "option"
        yield here, command, kind
        for choice in command.get("choices") or []:
            yield (*here, str(choice["value"])), choice, "choice"
        yield from walk(command.get("options") or [], here)


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names: ^[-_'\\p{L}\\p{N}…]{1,32}$, lowercase."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(c in "-_'" or unicodedata.category(c)[0] in "LN" for c in name)


async def test_every_command_option_and_choice_is_registered_in_czech_and_spanish(
    fake_discord, lamabot
):
    commands = registered_commands(fake_discord)
    seen = 0
    for path, entry, kind in walk(commands):
        seen += 1
        names = entry.get("name_localizations") or {}
        if kind == "choice":  # shown as its localisation, else its name (language names)
            assert all(1 <= len(names.get(loc, entry["name"])) <= 100 for loc in LOCALES)
            continue
        assert set(LOCALES) <= set(names), (path, names)
        descriptions = entry.get("description_localizations") or {}
        assert set(LOCALES) <= set(descriptions), (path, descriptions)
        for locale in LOCALES:
            assert valid_name(names[locale]), (path, locale, names[locale])
            assert 1 <= len(descriptions[locale]) <= 100, (path, locale, descriptions[locale])
    assert seen > 30
    # Only the languages we speak: Discord shows everyone else the code's English.
    for _, entry, kind in walk(commands):
        if kind != "choice":
            assert set(entry.get("name_localizations") or {}) == set(LOCALES)


async def test_every_choice_has_a_catalogue_entry(lamabot):
    where = app_commands.TranslationContextLocation.choice_name
    checked = 0
    for command in lamabot.tree.walk_commands():
        for parameter in getattr(command, "parameters", []):
            for choice in parameter.choices:
                context = app_commands.TranslationContext(where, choice)
                key = message_key(choice._locale_name, context)
                assert key and i18n.has_key(key), (command.qualified_name, choice)
                for locale, language in ((Locale.czech, "cs"), (Locale.spain_spanish, "es")):
                    shown = await LamaTranslator().translate(choice._locale_name, locale, context)
                    assert shown in (i18n.t(key, language), None)  # None: same as the default
                checked += 1
    assert checked >= 10


async def test_localised_names_are_unique_among_siblings(fake_discord, lamabot):
    def check(entries: list[dict], where: str) -> None:
        for locale in LOCALES:
            names = [e.get("name_localizations", {}).get(locale, e["name"]) for e in entries]
            assert len(names) == len(set(names)), (where, locale, names)
        for entry in entries:
            check(entry.get("options") or [], f"{where}/{entry['name']}")

    check(registered_commands(fake_discord), "")


async def test_the_names_are_the_catalogue_words(fake_discord, lamabot):
    by_name = {c["name"]: c for c in registered_commands(fake_discord)}
    lama = by_name["lama"]
    sub = {o["name"]: o for o in lama["options"]}
    assert sub["new"]["name_localizations"]["cs"] == "nová"
    assert sub["new"]["name_localizations"]["es-419"] == "nueva"
    assert by_name["quit"]["name_localizations"]["cs"] == "odstoupit"
    assert by_name["quit"]["name_localizations"]["es-ES"] == "plantarse"
    variant = next(o for o in sub["new"]["options"] if o["name"] == "variant")
    party = next(c for c in variant["choices"] if c["value"] == "party")
    assert party["name_localizations"]["cs"] == i18n.t("variant.party", "cs")
    assert party["name_localizations"]["en-US"] == i18n.t("variant.party", "en")
    language = next(o for o in sub["language"]["options"] if o["name"] == "language")
    assert {c["value"] for c in language["choices"]} == {"en", "cs", "es", "auto"}


async def test_a_czech_player_uses_a_command_and_is_answered_in_czech(fake_discord, lamabot):
    # Discord sends the English (registered) names whatever the client shows.
    petra = fake_discord.add_user("petra", locale="cs")
    result = await fake_discord.slash(petra, fake_discord.channel("lama"), "lama rules",
                                      variant="party")
    assert result.ephemeral
    assert result.embeds[0]["title"] == i18n.t("variant.party", "cs")
    assert result.embeds[0]["description"] == rules_text("party", "cs")


async def test_the_sync_hash_includes_the_translations(lamabot):
    before = await lamabot.command_tree_hash()

    class Louder(LamaTranslator):
        async def translate(self, string, locale, context):
            text = await super().translate(string, locale, context)
            return text.upper() if text and locale is Locale.czech else text

    await lamabot.tree.set_translator(Louder())
    try:
        assert await lamabot.command_tree_hash() != before
    finally:
        await lamabot.tree.set_translator(LamaTranslator())
    assert await lamabot.command_tree_hash() == before


def test_other_languages_keep_the_codes_english():
    command = app_commands.Command(name="draw", description="Draw", callback=_noop)
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, command
    )
    string = app_commands.locale_str("draw")
    translator = LamaTranslator()
    assert message_key(string, context) == "cmd.draw.name"

    async def run():
        return {loc: await translator.translate(string, loc, context) for loc in Locale}

    translated = asyncio.run(run())
    assert translated[Locale.czech] == "líznout"
    assert translated[Locale.spain_spanish] == translated[Locale.latin_american_spanish] == "robar"
    assert all(v is None for loc, v in translated.items()
               if loc not in (Locale.czech, Locale.spain_spanish, Locale.latin_american_spanish))


async def _noop(interaction) -> None:  # pragma: no cover - never invoked
    pass


# ------------------------------------------------------------ plural forms in game text


def table_view(draw_pile: int, cards: int) -> GameView:
    seats = (
        SeatView(0, "Ana", 1, None, card_count=cards, score=cards),
        SeatView(1, "Bob", 2, None, card_count=1, score=1),
    )
    return GameView(1, 10, 20, 1, Status.RUNNING, GameOptions(), seats, round_number=1,
                    top_card="3", draw_pile_size=draw_pile, discard_size=2, current_seat=0)


# Czech "few" is exactly 2–4: 22 is "karet", like 5 and 21.
CZECH_PILE = {1: "1 karta", 2: "2 karty", 5: "5 karet", 21: "21 karet", 22: "22 karet"}
SPANISH_PILE = {1: "1 carta", 2: "2 cartas", 5: "5 cartas", 21: "21 cartas", 22: "22 cartas"}


@pytest.mark.parametrize("n", [1, 2, 5, 21, 22])
def test_the_table_counts_cards_grammatically(n):
    cs = status_lines(table_view(n, n), "cs")
    assert f"Dobírací balíček: {CZECH_PILE[n]}" in cs
    es = status_lines(table_view(n, n), "es")
    assert SPANISH_PILE[n] in es
    en = status_lines(table_view(n, n), "en")
    assert (f"{n} card" if n == 1 else f"{n} cards") in en


def test_the_empty_draw_pile_reads_as_empty_not_zero_cards():
    text = status_lines(table_view(0, 3), "cs")
    assert i18n.t("table.draw_pile.empty", "cs") in text
