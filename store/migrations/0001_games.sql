-- Hosted games: lobby → running → finished | cancelled, their seats, the move log, and a
-- timers table that was never used (dropped by 0006: timers are derived from state).
-- Times are unix seconds (INTEGER) given by the caller's clock; ids are Discord snowflakes.
-- PostgreSQL's ids are identities BY DEFAULT: never reused (the sequence only grows), and a
-- bulk load may give its own (store/bulk.py moves the sequence past them).

CREATE TABLE games (
    -- AUTOINCREMENT: an id is never reused, even after a delete, because buttons and
    -- custom ids name games by id and a stale button must never reach a newer game.
    id                {IDENTITY},
    guild_id          {BIGINT} NOT NULL,
    channel_id        {BIGINT} NOT NULL,
    host_user_id      {BIGINT},                 -- NULL once the host asked to be forgotten
    variant           TEXT    NOT NULL,
    target            INTEGER NOT NULL CHECK (target > 0),
    turn_timeout_s    INTEGER NOT NULL CHECK (turn_timeout_s > 0),
    ai_delay_s        {DOUBLE}    NOT NULL CHECK (ai_delay_s >= 0),
    status            TEXT    NOT NULL DEFAULT 'lobby'
                      CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    seed              {BIGINT},                 -- set when the game starts
    state_json        TEXT,                    -- the engine's Game.to_dict(), opaque here
    last_seq          INTEGER NOT NULL DEFAULT 0,   -- seq of the newest move; guards commits
    table_channel_id  {BIGINT},
    table_message_id  {BIGINT},
    lobby_message_id  {BIGINT},
    created_at        {BIGINT} NOT NULL,
    started_at        {BIGINT},
    finished_at       {BIGINT},                 -- also set when cancelled
    updated_at        {BIGINT} NOT NULL,
    CHECK (status IN ('lobby', 'cancelled') OR (seed IS NOT NULL AND state_json IS NOT NULL))
) {STRICT};

-- One lobby or running game per channel; also the index behind "every unfinished game".
CREATE UNIQUE INDEX games_active_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'running');

CREATE TABLE seats (
    game_id           {BIGINT} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat              INTEGER NOT NULL CHECK (seat >= 0),    -- 0, 1, 2, …: join order
    user_id           {BIGINT},                 -- NULL for AI seats
    display_name      TEXT    NOT NULL,
    is_ai             INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    ai_level          TEXT,                    -- AI seats, and human seats an AI took over
    joined_at         {BIGINT} NOT NULL,
    has_left          INTEGER NOT NULL DEFAULT 0 CHECK (has_left IN (0, 1)),
    timeouts_in_a_row INTEGER NOT NULL DEFAULT 0 CHECK (timeouts_in_a_row >= 0),
    dm_channel_id     {BIGINT},
    hand_message_id   {BIGINT},                 -- the DM showing this seat's hand …
    hand_round        INTEGER,                 -- … in this round
    PRIMARY KEY (game_id, seat),
    CHECK (is_ai = 0 OR (user_id IS NULL AND ai_level IS NOT NULL)),
    CHECK (has_left = 0 OR ai_level IS NOT NULL)
) {STRICT};

CREATE UNIQUE INDEX seats_user_once_per_game ON seats (game_id, user_id)
    WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- Append-only: enough, with the game's seed, to replay any game.
CREATE TABLE moves (
    game_id      {BIGINT} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL CHECK (seq >= 1),
    round_number INTEGER NOT NULL,
    seat         INTEGER,                      -- NULL for system moves
    action_json  TEXT    NOT NULL,
    actor        TEXT    NOT NULL CHECK (actor IN ('human', 'ai', 'timer', 'system')),
    created_at   {BIGINT} NOT NULL,
    PRIMARY KEY (game_id, seq)
) {STRICT_WITHOUT_ROWID};

-- only: sqlite
CREATE TRIGGER moves_are_append_only BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;
-- only: postgresql
-- An integrity violation (SQLSTATE 23000), like SQLite's RAISE(ABORT) in a trigger.
CREATE FUNCTION moves_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'moves are append-only' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER moves_are_append_only BEFORE UPDATE ON moves
    FOR EACH ROW EXECUTE FUNCTION moves_are_append_only();
-- end only

-- At most one timer of each kind per game; they survive restarts. `kind` has no CHECK so a
-- new kind needs no table rebuild (SQLite cannot alter a CHECK): store.records.TimerKind
-- is the list.
CREATE TABLE timers (
    game_id      {BIGINT} NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind         TEXT    NOT NULL,
    due_at       {DOUBLE}    NOT NULL,             -- unix seconds; fractional for AI delays
    seat         INTEGER,
    round_number INTEGER,
    move_seq     INTEGER,                      -- the game's last_seq when set: stale if moved
    PRIMARY KEY (game_id, kind)
) {STRICT};

CREATE INDEX timers_by_due ON timers (due_at);
