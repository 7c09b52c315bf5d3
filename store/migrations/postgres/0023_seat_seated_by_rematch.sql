-- PostgreSQL twin of ../0023_seat_seated_by_rematch.sql: a player the rematch seated without
-- their asking, whom its lobby names while they stay seated.
ALTER TABLE seats ADD COLUMN seated_by_rematch INTEGER NOT NULL DEFAULT 0
    CHECK (seated_by_rematch IN (0, 1));
