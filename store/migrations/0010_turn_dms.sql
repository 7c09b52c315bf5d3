-- Issue 11: a player may turn off the DMs that tell them it is their turn (/lama notify);
-- they then play from the table's My hand button. One row per user who chose; no row: on.
CREATE TABLE user_notify (
    user_id     {BIGINT} PRIMARY KEY,
    turn_dms    INTEGER NOT NULL CHECK (turn_dms IN (0, 1)),
    updated_at  {BIGINT} NOT NULL
) {STRICT};
