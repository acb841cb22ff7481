-- Issue 37: the Activity's idempotency keys stored with the moves they made, so a key resent
-- to the process that took the game's shard over gets the first answer (bot/activity/hub.py).
-- Written in the move's own transaction (storage/actions.py); a key stored already refuses
-- the write (the primary key), nothing stored.
CREATE TABLE action_keys (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    key     TEXT    NOT NULL,
    n       INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id, key)
) WITHOUT ROWID;
