-- A server may default to no turn timer (turn_timeout_s = 0), as `/lama new turn_timeout:0`
-- allows for one game. SQLite cannot alter a CHECK, so guild_settings is rebuilt (nothing
-- references it, so no foreign keys are involved); the new CHECKs are the limits games accept.

CREATE TABLE guild_settings_new (
    guild_id         INTEGER PRIMARY KEY,
    variant          TEXT    NOT NULL,
    target           INTEGER NOT NULL CHECK (target > 0),
    turn_timeout_s   INTEGER NOT NULL CHECK (turn_timeout_s >= 0),   -- 0: no turn timer
    ai_delay_s       REAL    NOT NULL CHECK (ai_delay_s >= 0),
    games_channel_id INTEGER,                  -- NULL: games allowed in every channel
    updated_at       INTEGER NOT NULL
) STRICT;

INSERT INTO guild_settings_new (guild_id, variant, target, turn_timeout_s, ai_delay_s,
                                games_channel_id, updated_at)
SELECT guild_id, variant, target, turn_timeout_s, ai_delay_s, games_channel_id, updated_at
FROM guild_settings;

DROP TABLE guild_settings;

ALTER TABLE guild_settings_new RENAME TO guild_settings;
