-- PostgreSQL twin of ../0019_table_wait_told.sql: when a table's wait was told, once per table.
ALTER TABLE tournament_tables ADD COLUMN wait_told_at BIGINT;
