-- Nines: initial schema. Applied by bot/storage.py inside one transaction; never edit a
-- migration that has shipped, add the next numbered file instead.

-- One JSON object of settings per guild; the bot validates the keys and values.
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    settings   TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    updated_at REAL    NOT NULL
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reuse an id seen in a custom_id
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    kind             TEXT    NOT NULL CHECK (kind IN ('nines', 'nein-nine')),
    rules            TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
    seed             INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                             CHECK (status IN ('lobby', 'live', 'finished', 'abandoned')),
    host_id          INTEGER NOT NULL,
    language         TEXT    NOT NULL DEFAULT 'en',
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    turn_deadline    REAL,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    ended_at         REAL,
    end_reason       TEXT,
    hands_played     INTEGER,
    rated            INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
    -- An ended game always has its end time; an open one never does.
    CHECK ((status IN ('finished', 'abandoned')) = (ended_at IS NOT NULL))
);

-- One open game per channel (and per thread), enforced by the database, not by luck.
CREATE UNIQUE INDEX games_open_channel ON games (channel_id)
    WHERE status IN ('lobby', 'live');
CREATE UNIQUE INDEX games_open_thread ON games (thread_id)
    WHERE status IN ('lobby', 'live') AND thread_id IS NOT NULL;

CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    player_key  TEXT    NOT NULL,  -- 'u:<user id>', 'cpu:<difficulty>' or 'former'
    user_id     INTEGER,
    name        TEXT    NOT NULL,
    is_computer INTEGER NOT NULL CHECK (is_computer IN (0, 1)),
    difficulty  TEXT,
    away        INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
    timeouts    INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
    PRIMARY KEY (game_id, seat),
    CHECK (is_computer = 0 OR user_id IS NULL)
) WITHOUT ROWID;

-- A person sits at most once per game; also finds a user's games for forget_player.
CREATE UNIQUE INDEX seats_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;

-- The accepted moves, append-only: (rules, seed, actions) rebuilds any game.
CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL CHECK (n >= 0),
    seat        INTEGER NOT NULL,
    action      TEXT    NOT NULL,
    by_computer INTEGER NOT NULL CHECK (by_computer IN (0, 1)),
    at          REAL    NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;

-- Backstop for Storage.append_action: the log has no holes, whoever writes to it.
CREATE TRIGGER actions_contiguous BEFORE INSERT ON actions
WHEN NEW.n <> (SELECT count(*) FROM actions WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'action index out of sequence');
END;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

-- Final standing of each seat of a finished game, with the rating change it caused.
CREATE TABLE results (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    player_key    TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    is_computer   INTEGER NOT NULL CHECK (is_computer IN (0, 1)),
    place         INTEGER NOT NULL CHECK (place >= 1),
    is_winner     INTEGER NOT NULL CHECK (is_winner IN (0, 1)),
    tricks        INTEGER NOT NULL CHECK (tricks >= 0),
    hands         INTEGER NOT NULL CHECK (hands >= 0),
    swaps         INTEGER NOT NULL CHECK (swaps >= 0),
    exchanges     INTEGER NOT NULL CHECK (exchanges >= 0),
    final_score   INTEGER NOT NULL,
    rating_before REAL,  -- display ratings; NULL when the game was not rated
    rating_after  REAL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- Statistics and rating per guild, game kind and player (people and computer levels alike).
CREATE TABLE player_stats (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('nines', 'nein-nine')),
    player_key  TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    is_computer INTEGER NOT NULL CHECK (is_computer IN (0, 1)),
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    hands       INTEGER NOT NULL DEFAULT 0,
    tricks      INTEGER NOT NULL DEFAULT 0,
    swaps       INTEGER NOT NULL DEFAULT 0,
    exchanges   INTEGER NOT NULL DEFAULT 0,
    best_place  INTEGER,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    rating      REAL    NOT NULL,  -- display rating, see bot/ratings.py
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, kind, player_key)
) WITHOUT ROWID;

CREATE INDEX player_stats_board
    ON player_stats (guild_id, kind, is_computer, rating DESC, wins DESC);
