-- A server's web pages (issue 17): private by default, reached through an unguessable link;
-- a server may make them public (then its id in the address is enough). No row: private, and
-- no link yet (one is made the first time /lama settings shows it).

CREATE TABLE web_sites (
    guild_id   {BIGINT} PRIMARY KEY,
    public     INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1)),
    secret     TEXT    NOT NULL UNIQUE,        -- the private link's key: 128 random bits
    updated_at {BIGINT} NOT NULL
) {STRICT};
