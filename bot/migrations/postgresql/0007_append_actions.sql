-- A move's write in one round trip (issue 18: at 200 live games a write of five round trips,
-- each waiting on the bot's busy event loop, queued for the pool's connections and took p99
-- 1.2 s). The same steps as SQLite's transaction in storage/games.py: lock the game's row,
-- count its actions, and append only if the game is open and the count is the index the
-- caller expects. Returns the game's status and count as found (no row: no such game); the
-- caller decides from them what to report, and nothing was written unless both matched.
CREATE FUNCTION append_actions(
    p_game BIGINT,
    p_first INTEGER,
    p_seats INTEGER[],
    p_actions TEXT[],
    p_by_computer INTEGER[],
    p_at DOUBLE PRECISION,
    p_deadline DOUBLE PRECISION
) RETURNS TABLE (status TEXT, stored BIGINT) LANGUAGE plpgsql AS $$
DECLARE
    found_status TEXT;
    found_stored BIGINT;
BEGIN
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
