-- Issue 16: a due timer is a row any process can claim exactly once (store/timers.py). Every
-- process's sweep asks for running games whose timer is due, soonest first; the index of
-- 0013 also held the timers of cancelled games (a cancel kept its game's timer), a heap the
-- sweep would walk past forever. Those timers are cleared, a cancel clears its own, and the
-- index holds running games only.
UPDATE games SET timer_kind = NULL, timer_due_ms = NULL WHERE status <> 'running';

DROP INDEX games_timer_due;
CREATE INDEX games_running_timer_due ON games (timer_due_ms)
    WHERE status = 'running' AND timer_due_ms IS NOT NULL;
