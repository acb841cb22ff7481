-- Issue 47: the daily deal. Every person's try at a day's deal of one game, the points each
-- finished try scored on each hand of it, and the field of each hand kept as counts (how many
-- finished tries scored each points), so a finish adds a few increments and is scored by
-- reading its own hands' counts, never every result of the day (engine/duplicate.py).

-- One try per person, day and game: the primary key is what refuses a second try, on every
-- process at once. ``game_id``: the game played (NULL between the claim and the game's
-- creation; a restart then creates it). ``channel_id``: where the one public line goes.
CREATE TABLE daily_tries (
    day         TEXT    NOT NULL,  -- the UTC date, 'YYYY-MM-DD'
    kind        TEXT    NOT NULL CHECK (kind IN ('nines', 'nein-nine')),
    user_id     INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    game_id     INTEGER REFERENCES games (id) ON DELETE SET NULL,
    started_at  REAL    NOT NULL,
    finished_at REAL,
    PRIMARY KEY (day, kind, user_id)
) WITHOUT ROWID;

CREATE INDEX daily_tries_game ON daily_tries (game_id) WHERE game_id IS NOT NULL;
-- A server's standings: its people's finished tries of a day.
CREATE INDEX daily_tries_guild ON daily_tries (guild_id, day, kind);

-- A finished try's points on each hand (the person's seat: always seat 0 of the daily).
CREATE TABLE daily_boards (
    day     TEXT    NOT NULL,
    kind    TEXT    NOT NULL,
    user_id INTEGER NOT NULL,
    hand    INTEGER NOT NULL CHECK (hand >= 1),
    points  INTEGER NOT NULL,
    PRIMARY KEY (day, kind, user_id, hand)
) WITHOUT ROWID;

-- Each hand's field: how many finished tries scored ``points`` on it.
CREATE TABLE daily_field (
    day     TEXT    NOT NULL,
    kind    TEXT    NOT NULL,
    hand    INTEGER NOT NULL,
    points  INTEGER NOT NULL,
    players INTEGER NOT NULL CHECK (players >= 1),
    PRIMARY KEY (day, kind, hand, points)
) WITHOUT ROWID;

-- How the field played each decision of the person's seat: the ``decision``-th action of
-- seat 0 in ``hand``, and how many finished tries chose ``action`` there.
CREATE TABLE daily_choices (
    day      TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    hand     INTEGER NOT NULL,
    decision INTEGER NOT NULL,
    action   TEXT    NOT NULL,
    players  INTEGER NOT NULL CHECK (players >= 1),
    PRIMARY KEY (day, kind, hand, decision, action)
) WITHOUT ROWID;

-- The cross-server standings show only those who said yes, by the name they chose.
CREATE TABLE daily_public_names (
    user_id    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);

-- Duplicate at a table of friends (/nines start duplicate): the games of one match, the same
-- deals played again with the seats rotated by one each time. ``match_id``: its first game.
CREATE TABLE duplicate_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    match_id INTEGER NOT NULL,
    rotation INTEGER NOT NULL CHECK (rotation >= 0),
    UNIQUE (match_id, rotation)
);
