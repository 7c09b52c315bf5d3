-- A player's games in finishing order, from the index alone. `/lama stats` and the player's web
-- page count the streaks in (finished_at, game_id) order and list the last games in the
-- reverse: the index held finished_at but not game_id, so every result of the player was
-- read from the table and sorted again (100 ms for a player of 30,000 games, a core's worth
-- under a flood of players' pages, issue 33). The same columns, game_id after finished_at.
DROP INDEX results_by_guild_user;
CREATE INDEX results_by_guild_user ON game_results
    (guild_id, user_id, finished_at, game_id, variant, won, final_score, tokens_collected,
     clean_rounds, vs_ai, place, kicked)
    WHERE user_id IS NOT NULL AND kicked = 0;
