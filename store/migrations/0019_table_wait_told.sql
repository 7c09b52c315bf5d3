-- When a tournament table without a thread of its own was told to wait for a casual game in the
-- tournament's channel (NULL: not told). The notice is claimed here, once per table, so that a
-- restart or a second process looking at the waiting table again posts nothing more.
ALTER TABLE tournament_tables ADD COLUMN wait_told_at {BIGINT};
