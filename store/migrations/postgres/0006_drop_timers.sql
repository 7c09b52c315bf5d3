-- PostgreSQL twin of ../0006_drop_timers.sql: timers are derived from state, not stored.

DROP TABLE timers;
