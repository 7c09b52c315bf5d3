-- PostgreSQL twin of ../0009_ratings_and_seasons.sql: skill ratings per server and season,
-- every rated game's change per seat, and the seasons themselves (issue 15).

CREATE TABLE seasons (
    guild_id     BIGINT  NOT NULL,
    number       INTEGER NOT NULL CHECK (number >= 1),
    cadence      TEXT    NOT NULL,
    starts_at    BIGINT  NOT NULL,
    ends_at      BIGINT,                       -- NULL: open-ended (seasons off)
    closed_at    BIGINT,                       -- set when the next season opened
    announced_at BIGINT,                       -- its final top 3 was posted (or had nowhere to go)
    PRIMARY KEY (guild_id, number),
    CHECK (ends_at IS NULL OR ends_at > starts_at)
);

CREATE INDEX seasons_to_announce ON seasons (guild_id)
    WHERE closed_at IS NOT NULL AND announced_at IS NULL;

CREATE TABLE ratings (
    guild_id     BIGINT  NOT NULL,
    season       INTEGER NOT NULL,
    user_id      BIGINT,
    ai_level     TEXT,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    shown        INTEGER NOT NULL,
    games        INTEGER NOT NULL CHECK (games >= 0),
    wins         INTEGER NOT NULL CHECK (wins >= 0),
    career_games INTEGER NOT NULL CHECK (career_games >= games),
    best_shown   INTEGER NOT NULL,
    updated_at   BIGINT  NOT NULL,
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, number),
    CHECK ((user_id IS NULL) <> (ai_level IS NULL))
);

CREATE UNIQUE INDEX ratings_of_user ON ratings (guild_id, season, user_id)
    WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ratings_of_ai ON ratings (guild_id, season, ai_level)
    WHERE ai_level IS NOT NULL;
CREATE INDEX ratings_leaderboard ON ratings
    (guild_id, season, shown DESC, games, user_id, wins, career_games)
    WHERE user_id IS NOT NULL;
CREATE INDEX ratings_by_user ON ratings (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE rating_changes (
    game_id      BIGINT  NOT NULL REFERENCES finished_games (game_id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    guild_id     BIGINT  NOT NULL,
    season       INTEGER NOT NULL,
    finished_at  BIGINT  NOT NULL,
    user_id      BIGINT,
    ai_level     TEXT,
    rank         INTEGER NOT NULL CHECK (rank >= 1),
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    shown_before INTEGER NOT NULL,
    shown_after  INTEGER NOT NULL,
    career_games INTEGER NOT NULL,
    -- SQLite's implicit rowid, made explicit: the order the changes were written in, which a
    -- rerate replays (store/ratings.py reads `rowid` on both dialects).
    rowid        BIGINT  GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (game_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES game_results (game_id, seat)
);

CREATE INDEX rating_changes_of_user ON rating_changes
    (guild_id, user_id, finished_at, game_id, season, shown_before, shown_after)
    WHERE user_id IS NOT NULL;
CREATE INDEX rating_changes_by_user ON rating_changes (user_id) WHERE user_id IS NOT NULL;

ALTER TABLE guild_settings ADD COLUMN season_cadence TEXT NOT NULL DEFAULT 'off';
