-- PostgreSQL twin of ../0016_render_claims.sql: the render outbox one row per committed move,
-- with the process that shows it (`owner`) and when it last said so (`held_at`).
CREATE TABLE render_moves (
    game_id    BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    owner      TEXT    NOT NULL,
    held_at    BIGINT  NOT NULL,
    created_at BIGINT  NOT NULL,
    CONSTRAINT render_outbox_moves_pkey PRIMARY KEY (game_id, seq)
);

INSERT INTO render_moves (game_id, seq, owner, held_at, created_at)
SELECT game_id, seq, '', 0, created_at
FROM render_outbox, generate_series(from_seq, to_seq) AS seq;

DROP TABLE render_outbox;
ALTER TABLE render_moves RENAME TO render_outbox;
