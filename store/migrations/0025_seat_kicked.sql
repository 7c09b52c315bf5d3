-- A human the host (or a Manage Server admin) kicked from a running game did not choose to
-- leave: the game is not rated for them and does not count in their statistics, neither won
-- nor lost. Their seat and result row stay, marked, for the game's history. 0: they left of
-- their own accord or timed out too often (the game counts as their last place), or the seat
-- was never handed over. Games stored before this column count as before: 0.
ALTER TABLE seats ADD COLUMN kicked INTEGER NOT NULL DEFAULT 0 CHECK (kicked IN (0, 1));
ALTER TABLE game_results ADD COLUMN kicked INTEGER NOT NULL DEFAULT 0 CHECK (kicked IN (0, 1));

-- The leaderboard indexes rank counted rows only, so a kicked game's row stays out of them;
-- `kicked` is a column too, so the indexes stay covering (0002_stats_and_settings.sql).
DROP INDEX results_by_guild_user;
DROP INDEX results_by_guild_variant_user;
CREATE INDEX results_by_guild_user ON game_results
    (guild_id, user_id, finished_at, variant, won, final_score, tokens_collected,
     clean_rounds, vs_ai, place, kicked)
    WHERE user_id IS NOT NULL AND kicked = 0;
CREATE INDEX results_by_guild_variant_user ON game_results
    (guild_id, variant, user_id, finished_at, won, final_score, tokens_collected, clean_rounds,
     kicked)
    WHERE user_id IS NOT NULL AND kicked = 0;
