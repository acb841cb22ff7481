-- Issue 32: a move's write carries the writer's fencing token (0009's lease epoch) and is
-- refused, nothing written, when the shard's lease has a newer one: 0007's append_actions
-- with two more arguments, checked first in the same call. p_shard and p_epoch NULL: a
-- process without shards, not fenced. The lease's row is held (FOR SHARE) to the commit, so
-- a takeover's UPDATE of it waits for this write, then restores what it wrote.
-- Returns ('fenced', NULL) when refused, else as 0007 (the game's status and count found).
DROP FUNCTION append_actions(
    BIGINT, INTEGER, INTEGER[], TEXT[], INTEGER[], DOUBLE PRECISION, DOUBLE PRECISION
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
    p_epoch BIGINT
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
    -- A statement of its own, so it sees what a writer that held the lock before committed.
    SELECT count(*) INTO found_stored FROM actions AS a WHERE a.game_id = p_game;
    IF found_status IN ('lobby', 'live') AND found_stored = p_first THEN
        INSERT INTO actions (game_id, n, seat, action, by_computer, at)
            SELECT p_game, p_first + t.i - 1, t.seat, t.action, t.by_computer, p_at
            FROM unnest(p_seats, p_actions, p_by_computer) WITH ORDINALITY
                AS t (seat, action, by_computer, i)
            ORDER BY t.i;
        UPDATE games SET updated_at = p_at, turn_deadline = p_deadline WHERE id = p_game;
    END IF;
    RETURN QUERY SELECT found_status, found_stored;
END $$;
