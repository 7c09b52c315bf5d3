-- Which round the game's stored table message shows. A round's close, replayed from the render
-- outbox after a crash, must edit that round's table; the stored one may already be the next
-- round's (posted and stored before the round-ending move was marked shown). NULL: not known
-- (a table stored before this column): taken to be the round's, as before.
ALTER TABLE games ADD COLUMN table_round INTEGER;
