-- Issue 12: what committed changes must still show on Discord (the renderer's outbox).
-- A move (or a game's start) writes its game's row in the same transaction; the renderer
-- deletes it, or moves from_seq on, once everything up to a seq is on Discord. After a
-- crash every row left is shown again, derived from the game's committed state and moves.
-- One row per game, so any process can claim a game's pending render (issue 16).
CREATE TABLE render_outbox (
    game_id    {BIGINT} PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    from_seq   INTEGER NOT NULL CHECK (from_seq >= 0),  -- the first move not shown (0: the deal)
    to_seq     INTEGER NOT NULL CHECK (to_seq >= from_seq),  -- the newest committed move
    created_at {BIGINT} NOT NULL                         -- when the row was written
) {STRICT};
