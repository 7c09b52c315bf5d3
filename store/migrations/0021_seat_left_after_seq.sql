-- The game's last move when a human's seat was handed to an AI (they left, were kicked or timed
-- out too often): up to it the human held the seat, after it the AI, so the table keeps naming
-- the player for what they did (NULL: nobody handed this seat over).
ALTER TABLE seats ADD COLUMN left_after_seq INTEGER;

-- Seats handed over before this column: up to the seat's first AI move, else to the game's end.
UPDATE seats SET left_after_seq = COALESCE(
    (SELECT MIN(moves.seq) - 1 FROM moves
     WHERE moves.game_id = seats.game_id AND moves.seat = seats.seat AND moves.actor = 'ai'),
    (SELECT games.last_seq FROM games WHERE games.id = seats.game_id))
WHERE has_left = 1;
