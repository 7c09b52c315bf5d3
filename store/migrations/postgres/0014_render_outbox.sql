-- PostgreSQL twin of ../0014_render_outbox.sql: per game, the committed moves not yet shown
-- on Discord (the renderer's outbox); any process may show a row.
CREATE TABLE render_outbox (
    game_id    BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    from_seq   INTEGER NOT NULL CHECK (from_seq >= 0),
    to_seq     INTEGER NOT NULL CHECK (to_seq >= from_seq),
    created_at BIGINT  NOT NULL
);
