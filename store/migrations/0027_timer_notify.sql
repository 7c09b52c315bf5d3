-- Issue 35 point 6: on PostgreSQL, a process hears at once of a timer another process set
-- that falls due before every other stored timer (hosting/sweeper.py plans its next look for
-- when the soonest stored timer would be overdue: only a new soonest one changes that plan).
-- Such a commit notifies the channel lamabot_timers with the due time (milliseconds since the
-- epoch); NOTIFY is transactional, so the listeners hear it at the commit, never of a rollback.
-- Only a new soonest timer notifies: a notifying commit takes a lock every other notifying
-- commit waits for, and one on every move cost 11-14 % of the durable moves per second.
-- SQLite is one process's alone: no step there.
-- only: postgresql
CREATE FUNCTION games_timer_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM games WHERE status = 'running' AND timer_due_ms IS NOT NULL
                   AND timer_due_ms <= NEW.timer_due_ms AND id <> NEW.id) THEN
        PERFORM pg_notify('lamabot_timers', NEW.timer_due_ms::text);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER games_timer_notify AFTER INSERT OR UPDATE OF timer_due_ms ON games
    FOR EACH ROW WHEN (NEW.status = 'running' AND NEW.timer_due_ms IS NOT NULL)
    EXECUTE FUNCTION games_timer_notify();
-- end only
