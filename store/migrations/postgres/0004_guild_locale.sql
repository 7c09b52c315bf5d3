-- PostgreSQL twin of ../0004_guild_locale.sql: the language of a server's public messages.

ALTER TABLE guild_settings ADD COLUMN locale TEXT;
