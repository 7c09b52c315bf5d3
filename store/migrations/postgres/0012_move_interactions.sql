-- PostgreSQL twin of ../0012_move_interactions.sql: a human's move records the Discord
-- interaction that made it (a snowflake), and one interaction makes at most one move.
ALTER TABLE moves ADD COLUMN interaction_id BIGINT;

CREATE UNIQUE INDEX moves_one_per_interaction ON moves (interaction_id)
    WHERE interaction_id IS NOT NULL;
