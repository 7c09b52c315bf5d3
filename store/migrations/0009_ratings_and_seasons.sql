-- Skill ratings (issue 15): Weng-Lin (openskill) ratings per server and season, every rated
-- game's change per seat, and the seasons themselves. The rating model lives in
-- hosting/ratings.py; the store keeps its numbers and writes them in the transaction that
-- stores a finished game's results.

-- A server's seasons, numbered 1, 2, … With seasons off there is one season without an end.
-- A season's games are those finished in [starts_at, ends_at); once closed its ratings are
-- its final standings and never change again (a rerate aside).
CREATE TABLE seasons (
    guild_id     {BIGINT} NOT NULL,
    number       INTEGER NOT NULL CHECK (number >= 1),
    cadence      TEXT    NOT NULL,             -- hosting's SeasonCadence: off/monthly/quarterly
    starts_at    {BIGINT} NOT NULL,
    ends_at      {BIGINT},                      -- NULL: open-ended (seasons off)
    closed_at    {BIGINT},                      -- set when the next season opened
    announced_at {BIGINT},                      -- its final top 3 was posted (or had nowhere to go)
    PRIMARY KEY (guild_id, number),
    CHECK (ends_at IS NULL OR ends_at > starts_at)
) {STRICT};

-- Seasons whose final top 3 still waits to be announced: an outbox, so a crash between the
-- rollover and the post still posts it after the restart.
CREATE INDEX seasons_to_announce ON seasons (guild_id)
    WHERE closed_at IS NOT NULL AND announced_at IS NULL;

-- One row per rated identity per server and season: a human (user_id) or an AI level
-- (ai_level), never both. A player's first game of a season starts from their previous
-- season's final rating, softened.
CREATE TABLE ratings (
    guild_id     {BIGINT} NOT NULL,
    season       INTEGER NOT NULL,
    user_id      {BIGINT},
    ai_level     TEXT,
    mu           {DOUBLE}    NOT NULL,
    sigma        {DOUBLE}    NOT NULL CHECK (sigma > 0),
    shown        INTEGER NOT NULL,             -- the conservative display rating
    games        INTEGER NOT NULL CHECK (games >= 0),         -- rated games this season
    wins         INTEGER NOT NULL CHECK (wins >= 0),
    career_games INTEGER NOT NULL CHECK (career_games >= games),  -- all seasons: provisional
    best_shown   INTEGER NOT NULL,
    updated_at   {BIGINT} NOT NULL,
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, number),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
) {STRICT};

CREATE UNIQUE INDEX ratings_of_user ON ratings (guild_id, season, user_id)
    WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ratings_of_ai ON ratings (guild_id, season, ai_level)
    WHERE ai_level IS NOT NULL;
-- The rating leaderboard: humans only, in rating order, covering every column it shows.
CREATE INDEX ratings_leaderboard ON ratings
    (guild_id, season, shown DESC, games, user_id, wins, career_games)
    WHERE user_id IS NOT NULL;
-- forget_user across every server.
CREATE INDEX ratings_by_user ON ratings (user_id) WHERE user_id IS NOT NULL;

-- Every seat's rating change in every rated game: the game-end deltas, "last 10 games",
-- the best rating reached, and the record a rerate rewrites.
CREATE TABLE rating_changes (
    game_id      {BIGINT} NOT NULL REFERENCES finished_games (game_id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    guild_id     {BIGINT} NOT NULL,
    season       INTEGER NOT NULL,
    finished_at  {BIGINT} NOT NULL,
    user_id      {BIGINT},                      -- NULL: an AI seat, or a forgotten user
    ai_level     TEXT,                         -- the AI identity rated for this seat
    rank         INTEGER NOT NULL CHECK (rank >= 1),  -- as rated: leavers share last place
    mu_before    {DOUBLE}    NOT NULL,
    sigma_before {DOUBLE}    NOT NULL,
    mu_after     {DOUBLE}    NOT NULL,
    sigma_after  {DOUBLE}    NOT NULL,
    shown_before INTEGER NOT NULL,
    shown_after  INTEGER NOT NULL,
    career_games INTEGER NOT NULL,             -- rated games after this one (provisional < 5)
-- only: postgresql
    -- SQLite's implicit rowid, made explicit: the order the changes were written in, which a
    -- rerate replays (store/ratings.py reads `rowid` on both dialects).
    rowid        BIGINT  GENERATED ALWAYS AS IDENTITY,
-- end only
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES game_results (game_id, seat)
) {STRICT};

-- A player's recent changes and best rating, newest first, from the index alone.
CREATE INDEX rating_changes_of_user ON rating_changes
    (guild_id, user_id, finished_at, game_id, season, shown_before, shown_after)
    WHERE user_id IS NOT NULL;
CREATE INDEX rating_changes_by_user ON rating_changes (user_id) WHERE user_id IS NOT NULL;

-- off | monthly | quarterly (hosting's SeasonCadence, checked by the code).
ALTER TABLE guild_settings ADD COLUMN season_cadence TEXT NOT NULL DEFAULT 'off';
