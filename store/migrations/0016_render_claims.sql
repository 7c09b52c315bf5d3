-- Issue 16 point 4: the render outbox one row per committed move, held by the process that
-- committed it. 0014 kept one row per game (first unshown move .. newest), so one process
-- marking move 6 shown also cleared move 5, which another process had committed and not
-- shown yet. Now a process deletes exactly the moves it showed; `owner` names the process
-- that shows a row (its committer, or a peer that claimed it) and `held_at` is when that
-- process last said it is alive and still showing it (a commit, a renewal, a claim). A row
-- not held for longer than the lease is a dead process's lost render: any process may claim
-- it (a compare-and-set on PostgreSQL, FOR UPDATE SKIP LOCKED) and show it.
CREATE TABLE render_moves (
    game_id    {BIGINT} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),  -- the move (0: the deal)
    owner      TEXT    NOT NULL,                   -- the process showing it
    held_at    {BIGINT} NOT NULL,                   -- its owner's last word (unix seconds)
    created_at {BIGINT} NOT NULL,                   -- when it was committed
-- only: sqlite
    PRIMARY KEY (game_id, seq)
-- only: postgresql
    CONSTRAINT render_outbox_moves_pkey PRIMARY KEY (game_id, seq)
-- end only
) {STRICT_WITHOUT_ROWID};

-- Each game's unshown moves from..to, one row each; nobody holds them (claimable at once).
WITH RECURSIVE due (game_id, seq, to_seq, created_at) AS (
    SELECT game_id, from_seq, to_seq, created_at FROM render_outbox
    UNION ALL
    SELECT game_id, seq + 1, to_seq, created_at FROM due WHERE seq < to_seq
)
INSERT INTO render_moves (game_id, seq, owner, held_at, created_at)
SELECT game_id, seq, '', 0, created_at FROM due;

DROP TABLE render_outbox;
ALTER TABLE render_moves RENAME TO render_outbox;
