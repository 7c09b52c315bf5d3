-- Issue 12: a running game's next timer, kept to the millisecond. Timers were counted from
-- updated_at, stored in whole seconds, so after a restart they fired up to 1 s early. Now the
-- move (or the start, or the hand-over to an AI) that sets a timer writes its kind and due
-- time in the same transaction: an AI's move ('ai'), the half-time reminder ('reminder', which
-- then becomes 'turn' when it is sent), the end of a human's turn ('turn'). NULL: no timer.
--
-- A row is a claim ticket that any process can take exactly once: a timer that moves the game
-- is claimed by its commit (last_seq compare-and-set), a reminder by an UPDATE that matches
-- (last_seq, timer_kind, timer_due_ms) and advances the row (issue 16 adds FOR UPDATE SKIP
-- LOCKED on PostgreSQL to pick due rows).
ALTER TABLE games ADD COLUMN timer_kind TEXT CHECK (timer_kind IN ('ai', 'reminder', 'turn'));
ALTER TABLE games ADD COLUMN timer_due_ms {BIGINT};

-- The due timers, soonest first.
CREATE INDEX games_timer_due ON games (timer_due_ms) WHERE timer_due_ms IS NOT NULL;
