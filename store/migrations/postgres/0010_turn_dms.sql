-- PostgreSQL twin of ../0010_turn_dms.sql: who turned off their turn DMs (/lama notify).

CREATE TABLE user_notify (
    user_id     BIGINT  PRIMARY KEY,
    turn_dms    INTEGER NOT NULL CHECK (turn_dms IN (0, 1)),
    updated_at  BIGINT  NOT NULL
);
