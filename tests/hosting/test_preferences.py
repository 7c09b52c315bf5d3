"""Server settings and language choices have one owner: hosting.Preferences."""

from __future__ import annotations

import pytest

from hosting import FakeClock, GameService, HostingError, Preferences, Problem
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


async def test_settings_are_validated_saved_and_reach_new_lobbies(store, preferences):
    service = GameService(store, FakeClock(), preferences=preferences)
    assert await preferences.guild_settings(GUILD) == GuildSettings(GUILD)
    saved = await preferences.update_settings(GUILD, variant="party", target=60,
                                           turn_timeout_s=30, ai_delay_s=2.5,
                                           games_channel_id=77)
    assert saved == GuildSettings(GUILD, "party", 60, 30, 2.5, 77)
    assert await store.settings.get_settings(GUILD) == saved
    defaults = await service.guild_defaults(GUILD)
    assert (defaults.variant, defaults.target, defaults.turn_timeout) == ("party", 60, 30)
    with pytest.raises(Exception):  # noqa: B017 — the service's own HostingError
        service.check_channel_allowed(GUILD, 78)
    service.check_channel_allowed(GUILD, 77)
    cleared = await preferences.update_settings(GUILD, clear_channel=True)
    assert cleared.games_channel_id is None and cleared.target == 60
    service.check_channel_allowed(GUILD, 78)
    for bad in ({"target": 9}, {"target": 201}, {"turn_timeout_s": 0}, {"turn_timeout_s": 5},
                {"turn_timeout_s": 3601},
                {"ai_delay_s": 10.5}, {"ai_delay_s": -1}, {"variant": "poker"}):
        with pytest.raises(HostingError) as refused:
            await preferences.update_settings(GUILD, **bad)
        assert refused.value.problem is Problem.BAD_OPTION
        assert refused.value.details["value"] == next(iter(bad.values()))
    assert await store.settings.get_settings(GUILD) == cleared


async def test_the_public_language_is_a_server_setting(store, preferences):
    service = GameService(store, FakeClock(), preferences=preferences)
    saved = await preferences.update_settings(GUILD, locale="cs")
    assert saved.locale == "cs"
    assert service.cached_guild_locale(GUILD) == "cs"
    back = await preferences.update_settings(GUILD, locale="auto")
    assert back.locale is None
    with pytest.raises(HostingError) as refused:
        await preferences.update_settings(GUILD, locale="fr")
    assert refused.value.details == {"option": "language", "value": "fr"}
