-- PostgreSQL twin of ../0005_seat_quit_pending.sql: the round an AI quits for a leaver.

ALTER TABLE seats ADD COLUMN quit_pending_round INTEGER;
