-- PostgreSQL twin of ../0018_active_game_per_thread.sql: the active game of a thread, found
-- by a slash command used there whose process does not hold it.
CREATE INDEX games_active_per_thread ON games (thread_id)
    WHERE status IN ('lobby', 'running') AND thread_id IS NOT NULL;
