-- Issue 16: the same Discord interaction delivered twice (to two processes, or again after a
-- gateway resume) applies its move once. A human's move records the interaction that made
-- it; AI, timer and system moves have none. The unique index refuses a second move of one
-- interaction inside the transaction that would write it, in whichever process.
ALTER TABLE moves ADD COLUMN interaction_id {BIGINT};

CREATE UNIQUE INDEX moves_one_per_interaction ON moves (interaction_id)
    WHERE interaction_id IS NOT NULL;
