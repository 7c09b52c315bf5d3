-- PostgreSQL twin of ../0013_timer_due.sql: each running game's next timer (kind, and its due
-- time in milliseconds since the Unix epoch), written with the commit that sets it and claimed
-- by a compare-and-set (issue 16 adds FOR UPDATE SKIP LOCKED to pick due rows).
ALTER TABLE games ADD COLUMN timer_kind TEXT CHECK (timer_kind IN ('ai', 'reminder', 'turn'));
ALTER TABLE games ADD COLUMN timer_due_ms BIGINT;

-- The due timers, soonest first.
CREATE INDEX games_timer_due ON games (timer_due_ms) WHERE timer_due_ms IS NOT NULL;
