-- A stale Rematch button asks which game replays the finished one: found by index, not by
-- reading every game (only rematches carry the column).
CREATE INDEX games_by_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;
