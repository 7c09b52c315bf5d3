-- A slash command in a game's thread finds the game even when its process does not hold it:
-- another process opened it (a tournament's next table, opened where the last table of a
-- round ended) or set its thread (store/games.py `active_game_in_place`). The channel's game
-- is found by games_active_per_channel; this is its twin for threads, holding only the active
-- games that show themselves in one.
CREATE INDEX games_active_per_thread ON games (thread_id)
    WHERE status IN ('lobby', 'running') AND thread_id IS NOT NULL;
