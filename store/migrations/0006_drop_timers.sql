-- Timers are not stored: hosting derives each game's next AI move, reminder and turn
-- time-out from its state and the time of its last committed move (hosting/timers.py), so
-- after a restart they are re-armed with the same deadlines. The `timers` table of 0001 was
-- never written by the bot; dropping it leaves one source of truth. (Its index goes with it.)
--
-- A correction to 0003's comment: a turn timeout of 0 ("no timer") is NOT accepted, neither
-- for one game nor as a server default; both are checked against hosting/options.py
-- (10–3600 s). 0003's CHECK (turn_timeout_s >= 0) stays: rows are only ever written by code
-- that refuses 0, and games.turn_timeout_s (CHECK > 0) never held one.

DROP TABLE timers;
