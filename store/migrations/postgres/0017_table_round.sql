-- PostgreSQL twin of ../0017_table_round.sql: the round the stored table message shows.
ALTER TABLE games ADD COLUMN table_round INTEGER;
