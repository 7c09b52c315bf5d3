-- A rematch remembers the game it replays (issue 11), so a player of that game who presses its
-- Rematch button later — also after a restart — joins this lobby instead of being told the
-- channel is busy. NULL: a lobby opened with /lama new.

ALTER TABLE games ADD COLUMN rematch_of INTEGER REFERENCES games (id);
