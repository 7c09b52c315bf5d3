"""A server's language for public messages: GuildSettings.locale (migration guild_locale)."""

from __future__ import annotations

from store import GuildSettings, SettingsStore, load_migrations, open_database
from store.db import connect
from tests.store.support import GUILD

T0 = 1_700_000_000


def _guild_locale_step() -> int:
    return next(m.version for m in load_migrations() if m.name == "guild_locale")


async def test_a_server_follows_its_preferred_locale_until_it_chooses(db_location):
    db = await open_database(db_location)
    try:
        settings = SettingsStore(db)
        assert (await settings.get_settings(GUILD)).locale is None
        await settings.save_settings(GuildSettings(GUILD, variant="party", locale="es"), now=T0)
        assert await settings.get_settings(GUILD) == GuildSettings(GUILD, "party", locale="es")
        await settings.save_settings(GuildSettings(GUILD, variant="party"), now=T0 + 1)
        assert (await settings.get_settings(GUILD)).locale is None
    finally:
        await db.close()


async def test_the_migration_keeps_existing_settings_and_adds_no_language(empty_db_location):
    path = empty_db_location
    dialect = (probe := await connect(path)).dialect
    await probe.close()
    before = load_migrations(dialect)[: _guild_locale_step() - 1]
    db = await open_database(path, migrations=before)
    await _insert_old_row(db)
    await db.close()

    db = await open_database(path)
    try:
        settings = await SettingsStore(db).get_settings(GUILD)
        assert settings == GuildSettings(GUILD, "komarami", 30, 60, 0.5, 777, None)
    finally:
        await db.close()


async def _insert_old_row(db) -> None:
    async with db.transaction() as tx:
        await tx.execute(
            "INSERT INTO guild_settings (guild_id, variant, target, turn_timeout_s, ai_delay_s, "
            "games_channel_id, updated_at) VALUES (?, 'komarami', 30, 60, 0.5, 777, ?)",
            (GUILD, T0),
        )
