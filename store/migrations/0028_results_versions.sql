-- Issue 33: a server's results version, one number per server, raised in the transaction of
-- every write that changes what its leaderboards show: a game's results (and its ratings and
-- season), a rerate, a season rolled over, re-ended or announced, a player forgotten
-- (store/results_versions.py). A process keeping a board (hosting/board_cache.py) asks it,
-- one primary-key look-up, when the board's time is up: the same number means no process
-- wrote anything the board shows since it was made, so it is kept instead of made again.
-- No row: nothing was written since this step (version 0).
CREATE TABLE results_versions (
    guild_id {BIGINT} NOT NULL PRIMARY KEY,
    version  {BIGINT} NOT NULL CHECK (version >= 1)
) {STRICT_WITHOUT_ROWID};
