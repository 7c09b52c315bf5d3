-- Issue 35: every round's table message, not only the game's newest. A round's close edits
-- that round's own table, and a close retried after a storm of 429s, or replayed after a
-- crash, may come rounds after the game's stored table moved on to a newer round's; the
-- process that posted it may be gone. A row is written with the game's table (behind moves,
-- with the marks of the moves shown); a round posted anew (/lama table) keeps the newest.
CREATE TABLE round_tables (
    game_id      {BIGINT} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    channel_id   {BIGINT} NOT NULL,  -- the game's channel, or its thread
    message_id   {BIGINT} NOT NULL,
    PRIMARY KEY (game_id, round_number)
) {STRICT_WITHOUT_ROWID};
