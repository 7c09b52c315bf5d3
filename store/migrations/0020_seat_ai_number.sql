-- The number an AI seat is called by ("Llama-bot 3"); NULL: its place at the table, as every AI
-- of a casual game is. A tournament's AI entrant keeps its number among the tournament's AI
-- entrants at every table it sits at, so the pairings, the tables and the standings name it
-- alike; the AIs that only fill a table's empty seats are numbered after the entrants.
ALTER TABLE seats ADD COLUMN ai_number INTEGER;
