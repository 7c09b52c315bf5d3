-- PostgreSQL twin of ../0021_seat_left_after_seq.sql: the last move a human made in a seat an
-- AI took over.
ALTER TABLE seats ADD COLUMN left_after_seq INTEGER;

UPDATE seats SET left_after_seq = COALESCE(
    (SELECT MIN(moves.seq) - 1 FROM moves
     WHERE moves.game_id = seats.game_id AND moves.seat = seats.seat AND moves.actor = 'ai'),
    (SELECT games.last_seq FROM games WHERE games.id = seats.game_id))
WHERE has_left = 1;
