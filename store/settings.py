"""Per-server settings, per-user language, and a small key-value table."""

from __future__ import annotations

import secrets
import string

from store.db import Database, Row, Transaction
from store.records import GuildSettings

IDENTITY_KEY = "database_identity"
IDENTITY_ALPHABET = string.digits + string.ascii_lowercase
IDENTITY_LENGTH = 6


def new_identity() -> str:
    """A database identity: a letter, then letters or digits (see `SettingsStore.identity`)."""
    return secrets.choice(string.ascii_lowercase) + "".join(
        secrets.choice(IDENTITY_ALPHABET) for _ in range(IDENTITY_LENGTH - 1))


class SettingsStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings, or the defaults if it never saved any."""
        row = await self._db.fetchone(
            "SELECT variant, target, turn_timeout_s, ai_delay_s, games_channel_id, locale, "
            "game_threads, season_cadence FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, row["variant"], row["target"], row["turn_timeout_s"],
                             row["ai_delay_s"], row["games_channel_id"], row["locale"],
                             bool(row["game_threads"]), row["season_cadence"])

    async def save_settings(self, settings: GuildSettings, *, now: int) -> None:
        async def save(tx: Transaction) -> None:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, variant, target, turn_timeout_s, "
                "ai_delay_s, games_channel_id, locale, game_threads, season_cadence, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET variant = excluded.variant, "
                "target = excluded.target, turn_timeout_s = excluded.turn_timeout_s, "
                "ai_delay_s = excluded.ai_delay_s, "
                "games_channel_id = excluded.games_channel_id, locale = excluded.locale, "
                "game_threads = excluded.game_threads, "
                "season_cadence = excluded.season_cadence, updated_at = excluded.updated_at",
                (settings.guild_id, settings.variant, settings.target, settings.turn_timeout_s,
                 settings.ai_delay_s, settings.games_channel_id, settings.locale,
                 int(settings.game_threads), settings.season_cadence, now),
            )
        await self._db.write(save)

    async def get_user_locale(self, user_id: int) -> str | None:
        """The user's chosen language, or None to follow Discord's locale."""
        row = await self._db.fetchone("SELECT locale FROM user_locales WHERE user_id = ?",
                                      (user_id,))
        return None if row is None else row["locale"]

    async def set_user_locale(self, user_id: int, locale: str | None, *, now: int) -> None:
        """Choose a language; None removes the override."""
        async def choose(tx: Transaction) -> None:
            if locale is None:
                await tx.execute("DELETE FROM user_locales WHERE user_id = ?", (user_id,))
                return
            await tx.execute(
                "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, "
                "updated_at = excluded.updated_at",
                (user_id, locale, now),
            )
        await self._db.write(choose)

    async def get_turn_dms(self, user_id: int) -> bool:
        """Whether the user gets a DM when it is their turn (the default: yes)."""
        row = await self._db.fetchone("SELECT turn_dms FROM user_notify WHERE user_id = ?",
                                      (user_id,))
        return True if row is None else bool(row["turn_dms"])

    async def set_turn_dms(self, user_id: int, on: bool, *, now: int) -> None:
        async def choose(tx: Transaction) -> None:
            await tx.execute(
                "INSERT INTO user_notify (user_id, turn_dms, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET turn_dms = excluded.turn_dms, "
                "updated_at = excluded.updated_at",
                (user_id, int(on), now),
            )
        await self._db.write(choose)

    async def get_meta(self, key: str) -> str | None:
        async with self._db.read() as tx:
            row = await tx.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else row["value"]

    async def set_meta(self, key: str, value: str) -> None:
        async def save(tx: Transaction) -> None:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        await self._db.write(save)

    async def identity(self) -> str:
        """This database's identity: a letter and five letters or digits, random, made on first
        use, then the same for every process that shares the database (the first writer wins
        a race). Custom ids carry it; the letter keeps it apart from the numbers beside it."""
        made = new_identity()

        async def made_or_kept(tx: Transaction) -> Row | None:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                (IDENTITY_KEY, made),
            )
            return await tx.fetchone("SELECT value FROM meta WHERE key = ?", (IDENTITY_KEY,))
        row = await self._db.write(made_or_kept)
        assert row is not None  # inserted above unless it was already there
        return str(row["value"])
