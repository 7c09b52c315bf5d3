-- PostgreSQL twin of ../0008_web_sites.sql: a server's web pages (issue 17).

CREATE TABLE web_sites (
    guild_id   BIGINT  PRIMARY KEY,
    public     INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1)),
    secret     TEXT    NOT NULL UNIQUE,        -- the private link's key: 128 random bits
    updated_at BIGINT  NOT NULL
);
