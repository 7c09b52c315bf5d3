-- PostgreSQL twin of ../0024_game_end_message.sql: where a game's "Game over" post is, for
-- its Rematch button to come back when its rematch lobby is cancelled.
ALTER TABLE games ADD COLUMN end_message_id BIGINT;
