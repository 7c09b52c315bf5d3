-- Issue 11.
-- A rematch remembers the game it replays, so a player of that game who presses its Rematch
-- button later — also after a restart — joins this lobby instead of being told the channel
-- is busy. NULL: a lobby opened with /lama new.
ALTER TABLE games ADD COLUMN rematch_of {BIGINT} REFERENCES games (id);

-- A server may show each game in its own thread (started from the lobby message when the
-- game starts, archived when it ends); the game remembers its thread, so commands used in
-- it still reach the game after a restart. NULL: the game shows itself in its channel.
ALTER TABLE guild_settings ADD COLUMN game_threads INTEGER NOT NULL DEFAULT 0
    CHECK (game_threads IN (0, 1));
ALTER TABLE games ADD COLUMN thread_id {BIGINT};
