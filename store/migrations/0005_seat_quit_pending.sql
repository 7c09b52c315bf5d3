-- A human who leaves mid-round hands the seat to an AI that quits that round for them (issue 4).
-- The round is remembered so the AI still quits it after a restart. NULL: nothing pending.

ALTER TABLE seats ADD COLUMN quit_pending_round INTEGER;
