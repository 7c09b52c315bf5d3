-- PostgreSQL twin of ../0022_rematch_index.sql: the rematch of a finished game, by index.
CREATE INDEX games_by_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;
