"""Server settings and language choices have one owner: hosting.Preferences."""

from __future__ import annotations

import pytest

from hosting import FakeClock, Preferences
from store import GuildSettings
from tests.hosting.support import ALICE, GUILD


@pytest.fixture
def preferences(store):
    return Preferences(store, FakeClock())


async def test_a_readers_choice_beats_their_clients_language(preferences):
    await preferences.set_user_choice(ALICE, "cs")
    assert preferences.reader_locale(ALICE, "es-ES") == "cs"


async def test_without_a_choice_a_reader_gets_their_clients_language(preferences):
    assert preferences.reader_locale(ALICE, "es-ES") == "es"
    assert preferences.reader_locale(ALICE, "fr") == "en"  # what we do not speak: English


async def test_a_dm_follows_the_choice_then_the_last_interaction_then_the_game(preferences):
    assert preferences.dm_locale(ALICE, "es") == "es"  # nothing known: the game's language
    preferences.reader_locale(ALICE, "cs")
    assert preferences.dm_locale(ALICE, "es") == "cs"
    await preferences.set_user_choice(ALICE, "en")
    assert preferences.dm_locale(ALICE, "es") == "en"


async def test_a_choice_is_read_from_the_store_once_and_survives_a_restart(store, preferences):
    await preferences.set_user_choice(ALICE, "es")
    fresh = Preferences(store, FakeClock())
    assert fresh.dm_locale(ALICE, "en") == "en"  # not read yet
    assert await fresh.load_user_choice(ALICE) == "es"
    assert fresh.dm_locale(ALICE, "en") == "es"


async def test_choosing_auto_forgets_the_choice(store, preferences):
    await preferences.set_user_choice(ALICE, "cs")
    await preferences.set_user_choice(ALICE, None)
    assert preferences.reader_locale(ALICE, "es-419") == "es"
    assert await Preferences(store, FakeClock()).load_user_choice(ALICE) is None


async def test_a_servers_public_language_is_its_setting_else_its_preferred_one(preferences):
    assert await preferences.load_public_locale(GUILD, "cs") == "cs"
    await preferences.save_guild_settings(GuildSettings(GUILD, locale="es"))
    assert preferences.public_locale(GUILD, "cs") == "es"
    assert preferences.public_locale(None, None) == "en"  # a DM: English


async def test_the_setting_is_unknown_until_the_servers_settings_are_loaded(store):
    await Preferences(store, FakeClock()).save_guild_settings(GuildSettings(GUILD, locale="es"))
    fresh = Preferences(store, FakeClock())
    assert fresh.public_locale(GUILD, "cs") == "cs"
    assert await fresh.load_public_locale(GUILD, "cs") == "es"


async def test_forgetting_a_user_forgets_their_languages_too(preferences):
    await preferences.set_user_choice(ALICE, "cs")
    preferences.reader_locale(ALICE, "es-ES")
    preferences.forget_user(ALICE)
    assert preferences.dm_locale(ALICE, "en") == "en"
