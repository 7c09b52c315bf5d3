"""SettingsStore: server settings, per-user language, the meta table. Real SQLite files."""

from __future__ import annotations

import pytest

from store import GuildSettings, SettingsStore, StatsStore, open_database
from tests.store.support import GUILD

T0 = 1_700_000_000


@pytest.fixture
def settings(db):
    return SettingsStore(db)


async def test_a_server_without_settings_gets_the_defaults(settings):
    assert await settings.get_settings(GUILD) == GuildSettings(GUILD)
    assert (await settings.get_settings(GUILD)).turn_timeout_s == 120


async def test_saved_settings_are_read_back(settings):
    mine = GuildSettings(GUILD, variant="party", target=50, turn_timeout_s=60, ai_delay_s=0.5,
                         games_channel_id=777, game_threads=True)
    await settings.save_settings(mine, now=T0)
    assert await settings.get_settings(GUILD) == mine
    assert await settings.get_settings(GUILD + 1) == GuildSettings(GUILD + 1)


async def test_saving_again_replaces_the_settings(settings):
    await settings.save_settings(GuildSettings(GUILD, games_channel_id=777), now=T0)
    await settings.save_settings(GuildSettings(GUILD, target=30), now=T0 + 1)
    assert await settings.get_settings(GUILD) == GuildSettings(GUILD, target=30)


async def test_user_locale_override_set_changed_and_removed(settings):
    assert await settings.get_user_locale(1) is None
    await settings.set_user_locale(1, "cs", now=T0)
    await settings.set_user_locale(1, "es", now=T0 + 1)
    assert await settings.get_user_locale(1) == "es"
    await settings.set_user_locale(1, None, now=T0 + 2)
    assert await settings.get_user_locale(1) is None


async def test_forget_user_drops_their_language(db, settings):
    await settings.set_user_locale(1, "cs", now=T0)
    await StatsStore(db).forget_user(1)
    assert await settings.get_user_locale(1) is None


async def test_meta_values_survive_a_restart(db_location):
    path = db_location
    db = await open_database(path)
    await SettingsStore(db).set_meta("command_tree_hash", "abc")
    await SettingsStore(db).set_meta("command_tree_hash", "def")
    await db.close()
    db = await open_database(path)
    value = await SettingsStore(db).get_meta("command_tree_hash")
    missing = await SettingsStore(db).get_meta("nothing")
    await db.close()
    assert (value, missing) == ("def", None)


async def test_a_database_keeps_one_identity_and_another_database_has_its_own(tmp_path):
    path = tmp_path / "lama.sqlite3"
    db = await open_database(path)
    first = await SettingsStore(db).identity()
    again = await SettingsStore(db).identity()
    await db.close()
    db = await open_database(path)
    after_restart = await SettingsStore(db).identity()
    await db.close()
    other = await open_database(tmp_path / "other.sqlite3")
    elsewhere = await SettingsStore(other).identity()
    await other.close()
    assert first == again == after_restart and len(first) == 6 and first.isalnum()
    assert first[0].isalpha() and first == first.lower()
    assert elsewhere != first
