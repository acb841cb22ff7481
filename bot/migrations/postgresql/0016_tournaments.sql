-- Issue 48, PostgreSQL's spelling of ../0016_tournaments.sql: tournaments run by the bot in a server. A tournament's state is stored like a
-- game's, so a restart or a failover in the middle of a round loses nothing: its settings and
-- status, who registered (and dropped), each round's tables as paired (written once: the
-- round's number moves on in the same transaction, so a round is never paired twice), and
-- which game each table plays and how it ended.
CREATE TABLE tournaments (
    id                      BIGSERIAL PRIMARY KEY,
    guild_id                BIGINT NOT NULL,
    channel_id              BIGINT NOT NULL,
    host_id                 BIGINT NOT NULL,
    name                    TEXT    NOT NULL,
    ruleset                 TEXT    NOT NULL,
    settings                TEXT    NOT NULL DEFAULT '{}',
    seats                   INTEGER NOT NULL CHECK (seats IN (3, 4)),
    rounds                  INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 20),
    move_timer              INTEGER NOT NULL CHECK (move_timer > 0),
    round_minutes           INTEGER NOT NULL CHECK (round_minutes > 0),
    -- Minutes between a round's end and the next round (0: the next starts at once).
    break_minutes           INTEGER NOT NULL DEFAULT 0 CHECK (break_minutes >= 0),
    duplicate               INTEGER NOT NULL CHECK (duplicate IN (0, 1)),
    champion_role_id        BIGINT,
    language                TEXT    NOT NULL DEFAULT 'en',
    seed                    BIGINT NOT NULL,
    status                  TEXT    NOT NULL DEFAULT 'registration'
                            CHECK (status IN ('registration', 'running', 'paused', 'finished',
                                              'cancelled')),
    current_round           INTEGER NOT NULL DEFAULT 0 CHECK (current_round >= 0),
    start_at                DOUBLE PRECISION,
    round_deadline          DOUBLE PRECISION,
    next_round_at           DOUBLE PRECISION,
    registration_message_id BIGINT,
    event_id                BIGINT,
    created_at              DOUBLE PRECISION    NOT NULL,
    updated_at              DOUBLE PRECISION    NOT NULL
);

CREATE INDEX tournaments_open ON tournaments (status)
    WHERE status IN ('registration', 'running', 'paused');

CREATE TABLE tournament_players (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL,
    name          TEXT    NOT NULL,
    joined_at     DOUBLE PRECISION    NOT NULL,
    -- The first round the person is paired in (a late joiner enters the next round).
    first_round   INTEGER NOT NULL CHECK (first_round >= 1),
    checked_in    INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
    -- The round from which they are no longer paired (left or removed); their games stand.
    dropped_round INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_tables (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    seed          BIGINT NOT NULL,
    -- Who sits in each seat position, position 0 dealing first: user ids, 0 for a computer.
    players       TEXT    NOT NULL,
    game_id       BIGINT REFERENCES games (id),
    thread_id     BIGINT,
    -- Each seat position's final score, comma separated, once the table has ended.
    scores        TEXT,
    PRIMARY KEY (tournament_id, round, table_no)
);

CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables (game_id)
    WHERE game_id IS NOT NULL;

-- A game a tournament's table plays: marked in history and records.
ALTER TABLE games ADD COLUMN tournament_id BIGINT;
