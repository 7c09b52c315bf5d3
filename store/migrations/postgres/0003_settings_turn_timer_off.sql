-- PostgreSQL twin of ../0003_settings_turn_timer_off.sql (a CHECK that allows 0; the code
-- refuses 0 anyway, see 0006). PostgreSQL can swap a CHECK without rebuilding the table.

ALTER TABLE guild_settings DROP CONSTRAINT guild_settings_turn_timeout_s_check;
ALTER TABLE guild_settings ADD CONSTRAINT guild_settings_turn_timeout_s_check
    CHECK (turn_timeout_s >= 0);
