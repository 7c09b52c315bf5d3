-- PostgreSQL twin of ../0025_seat_kicked.sql: a human kicked from a running game is neither
-- rated nor counted in statistics for it; their seat and result row stay, marked.
ALTER TABLE seats ADD COLUMN kicked INTEGER NOT NULL DEFAULT 0 CHECK (kicked IN (0, 1));
ALTER TABLE game_results ADD COLUMN kicked INTEGER NOT NULL DEFAULT 0 CHECK (kicked IN (0, 1));

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
