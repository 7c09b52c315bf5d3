-- PostgreSQL twin of ../0015_running_timers.sql: the timers of games that are not running are
-- cleared, and the sweep's index (due timers, soonest first) holds running games only.
UPDATE games SET timer_kind = NULL, timer_due_ms = NULL WHERE status <> 'running';

DROP INDEX games_timer_due;
CREATE INDEX games_running_timer_due ON games (timer_due_ms)
    WHERE status = 'running' AND timer_due_ms IS NOT NULL;
