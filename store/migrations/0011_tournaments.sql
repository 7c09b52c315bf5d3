-- Swiss tournaments (issue 15): sign-ups, each round's tables, and the hosted game each table
-- is played as. Standings are not stored: they follow from the tables' game results.

CREATE TABLE tournaments (
    -- AUTOINCREMENT: sign-up buttons name tournaments by id; an id is never reused.
    id                {IDENTITY},
    guild_id          {BIGINT} NOT NULL,
    channel_id        {BIGINT} NOT NULL,        -- sign-ups, announcements, and the tables' games
    organiser_id      {BIGINT},                 -- NULL once they asked to be forgotten
    name              TEXT    NOT NULL,
    rounds            INTEGER NOT NULL CHECK (rounds >= 1),
    table_size        INTEGER NOT NULL CHECK (table_size BETWEEN 3 AND 5),
    variant           TEXT    NOT NULL,
    status            TEXT    NOT NULL DEFAULT 'signup'
                      CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round             INTEGER NOT NULL DEFAULT 0,   -- the round being played (0: not started)
    signup_message_id {BIGINT},
    created_at        {BIGINT} NOT NULL,
    updated_at        {BIGINT} NOT NULL
) {STRICT};

-- One open tournament per channel; also "every open tournament" after a restart.
CREATE UNIQUE INDEX tournaments_open_per_channel ON tournaments (channel_id)
    WHERE status IN ('signup', 'running');

CREATE TABLE tournament_entries (
    tournament_id {BIGINT} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entry         INTEGER NOT NULL CHECK (entry >= 1),   -- sign-up order: the last tie-break
    user_id       {BIGINT},                               -- NULL: an AI entrant
    ai_level      TEXT,
    display_name  TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, entry),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
) {STRICT};

CREATE UNIQUE INDEX tournament_entries_once ON tournament_entries (tournament_id, user_id)
    WHERE user_id IS NOT NULL;

-- A round's tables, written all at once when the round is seated; each gets its hosted game
-- when its turn to play comes (tables of one channel play one after another).
CREATE TABLE tournament_tables (
    tournament_id {BIGINT} NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    entries       TEXT    NOT NULL,            -- JSON list of entries: seats 0, 1, … in order
    ai_seats      INTEGER NOT NULL CHECK (ai_seats >= 0),   -- filling seats after the entries
    game_id       {BIGINT} REFERENCES games (id),            -- NULL until its game opens
    PRIMARY KEY (tournament_id, round, table_no)
) {STRICT};

CREATE UNIQUE INDEX tournament_tables_by_game ON tournament_tables (game_id)
    WHERE game_id IS NOT NULL;
