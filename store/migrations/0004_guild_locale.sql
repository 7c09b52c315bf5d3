-- A server may choose the language of LAMA's public messages (lobby, table, summaries).
-- NULL: follow the server's preferred locale (Discord's community setting). The value is one
-- of i18n.SUPPORTED_LOCALES ("en", "cs", "es"), checked by the code rather than a CHECK, so a
-- new language needs no table rebuild.

ALTER TABLE guild_settings ADD COLUMN locale TEXT;
