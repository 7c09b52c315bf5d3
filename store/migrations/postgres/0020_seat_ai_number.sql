-- PostgreSQL twin of ../0020_seat_ai_number.sql: the number an AI seat is called by.
ALTER TABLE seats ADD COLUMN ai_number INTEGER;
