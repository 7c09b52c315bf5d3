-- Meant to let a server default to no turn timer (turn_timeout_s = 0). That never shipped:
-- games and server defaults both refuse 0 (10–3600 s, hosting/options.py; see 0006). The
-- rebuild below stays as it ran. SQLite cannot alter a CHECK, so guild_settings is rebuilt
-- (nothing references it, so no foreign keys are involved).
-- PostgreSQL can swap a CHECK without rebuilding the table.

-- only: sqlite
CREATE TABLE guild_settings_new (
    guild_id         INTEGER PRIMARY KEY,
    variant          TEXT    NOT NULL,
    target           INTEGER NOT NULL CHECK (target > 0),
    turn_timeout_s   INTEGER NOT NULL CHECK (turn_timeout_s >= 0),   -- the code refuses 0
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
-- only: postgresql
ALTER TABLE guild_settings DROP CONSTRAINT guild_settings_turn_timeout_s_check;
ALTER TABLE guild_settings ADD CONSTRAINT guild_settings_turn_timeout_s_check
    CHECK (turn_timeout_s >= 0);
-- end only
