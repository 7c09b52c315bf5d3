-- PostgreSQL twin of ../0007_rematch_and_threads.sql: rematches and game threads (issue 11).

ALTER TABLE games ADD COLUMN rematch_of BIGINT REFERENCES games (id);

ALTER TABLE guild_settings ADD COLUMN game_threads INTEGER NOT NULL DEFAULT 0
    CHECK (game_threads IN (0, 1));
ALTER TABLE games ADD COLUMN thread_id BIGINT;
