-- A rematch seats the players of the game it replays without their asking (all but the one
-- who pressed Rematch): its lobby names them ("@Ana @Bob: you're seated for the rematch"),
-- and as long as the lobby is there the line names only those of them still seated. 0: the
-- player took the seat themselves (or it is an AI's).
ALTER TABLE seats ADD COLUMN seated_by_rematch INTEGER NOT NULL DEFAULT 0
    CHECK (seated_by_rematch IN (0, 1));
