-- The Activity shows a page that connects a moment after its channel's game ended that game's
-- final screen (web/activity/live.py): it asks for the newest game of the channel, or of the
-- game thread it is, whatever its status (store/watch.py `ended_in_place`), whichever process
-- ended it. The partial indexes of active games hold no ended game: these find the newest
-- game of a place in one step each instead of reading every game ever played there.
CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE INDEX games_by_thread ON games (thread_id, id) WHERE thread_id IS NOT NULL;
