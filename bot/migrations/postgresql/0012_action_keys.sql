-- Issue 37: the Activity's idempotency keys stored with the moves they made, so a key resent
-- to the process that took the game's shard over gets the first answer (bot/activity/hub.py).
-- 0010's append_actions with the person's key: stored in the same call, after the fence and
-- the count are checked; a key stored already refuses the whole write ('answered', nothing
-- stored). p_user and p_key NULL: no key (a chat click, a timer, the computers).
CREATE TABLE action_keys (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    key     TEXT   NOT NULL,
    n       INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id, key)
);

DROP FUNCTION append_actions(
    BIGINT, INTEGER, INTEGER[], TEXT[], INTEGER[], DOUBLE PRECISION, DOUBLE PRECISION,
    INTEGER, BIGINT
);
CREATE FUNCTION append_actions(
    p_game BIGINT,
    p_first INTEGER,
    p_seats INTEGER[],
    p_actions TEXT[],
    p_by_computer INTEGER[],
    p_at DOUBLE PRECISION,
    p_deadline DOUBLE PRECISION,
    p_shard INTEGER,
    p_epoch BIGINT,
    p_user BIGINT,
    p_key TEXT
) RETURNS TABLE (status TEXT, stored BIGINT) LANGUAGE plpgsql AS $$
DECLARE
    found_status TEXT;
    found_stored BIGINT;
BEGIN
    IF p_epoch IS NOT NULL THEN
        PERFORM 1 FROM shard_leases AS l
            WHERE l.shard_id = p_shard AND l.epoch = p_epoch FOR SHARE;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'fenced'::TEXT, NULL::BIGINT;
            RETURN;
        END IF;
    END IF;
    SELECT g.status INTO found_status FROM games AS g WHERE g.id = p_game FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- Under the game's row lock: a key is looked for after its first write committed.
    IF p_key IS NOT NULL THEN
        PERFORM 1 FROM action_keys AS k
            WHERE k.game_id = p_game AND k.user_id = p_user AND k.key = p_key;
        IF FOUND THEN
            RETURN QUERY SELECT 'answered'::TEXT, NULL::BIGINT;
            RETURN;
        END IF;
    END IF;
    -- A statement of its own, so it sees what a writer that held the lock before committed.
    SELECT count(*) INTO found_stored FROM actions AS a WHERE a.game_id = p_game;
    IF found_status IN ('lobby', 'live') AND found_stored = p_first THEN
        INSERT INTO actions (game_id, n, seat, action, by_computer, at)
            SELECT p_game, p_first + t.i - 1, t.seat, t.action, t.by_computer, p_at
            FROM unnest(p_seats, p_actions, p_by_computer) WITH ORDINALITY
                AS t (seat, action, by_computer, i)
            ORDER BY t.i;
        IF p_key IS NOT NULL THEN
            INSERT INTO action_keys (game_id, user_id, key, n)
                VALUES (p_game, p_user, p_key, p_first);
        END IF;
        UPDATE games SET updated_at = p_at, turn_deadline = p_deadline WHERE id = p_game;
    END IF;
    RETURN QUERY SELECT found_status, found_stored;
END $$;
