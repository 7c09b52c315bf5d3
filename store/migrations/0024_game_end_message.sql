-- Where a game's "Game over" post is (in its thread if it had one, else its channel): when
-- the game's rematch lobby is cancelled, the post's link to it turns back into the Rematch
-- button, also after a restart. NULL: not posted yet, or posted before this column.
ALTER TABLE games ADD COLUMN end_message_id {BIGINT};
