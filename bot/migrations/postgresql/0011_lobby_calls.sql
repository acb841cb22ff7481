-- Issue 31: /nines start and each lobby click in one round trip each, as a move's write is
-- (0007_append_actions.sql). At 200 games their transactions of 4-7 round trips, each queued
-- behind the bot's busy event loop, took p99 195 ms (a lobby click) and 336 ms (/nines start)
-- against 63 ms for a card. Each function runs the same steps as SQLite's transaction in
-- storage/games.py; a lone statement is atomic, so it needs no BEGIN and COMMIT either.

-- Open a lobby with its first seats. A channel (or thread) that already has an open game is a
-- unique violation, as the partial unique indexes raise for a race the check cannot see: the
-- caller finds the game that is there and says which. Returns the new game's row.
CREATE FUNCTION open_game(
    p_guild BIGINT,
    p_channel BIGINT,
    p_thread BIGINT,
    p_kind TEXT,
    p_rules TEXT,
    p_seed BIGINT,
    p_host BIGINT,
    p_language TEXT,
    p_lobby_message BIGINT,
    p_at DOUBLE PRECISION,
    p_rated INTEGER,
    p_seats INTEGER[],
    p_keys TEXT[],
    p_users BIGINT[],
    p_names TEXT[],
    p_computers INTEGER[],
    p_difficulties TEXT[]
) RETURNS SETOF games LANGUAGE plpgsql AS $$
DECLARE
    places BIGINT[] := array_remove(ARRAY[p_channel, p_thread], NULL);
    created games;
BEGIN
    -- A game is "in" a channel if it was started there or runs in a thread with that id.
    IF EXISTS (
        SELECT 1 FROM games AS g
        WHERE g.status IN ('lobby', 'live') AND g.channel_id = ANY (places)
        UNION ALL
        SELECT 1 FROM games AS g
        WHERE g.status IN ('lobby', 'live') AND g.thread_id = ANY (places)
    ) THEN
        RAISE unique_violation USING MESSAGE = 'the channel already has an open game';
    END IF;
    INSERT INTO games (guild_id, channel_id, thread_id, kind, rules, seed, status, host_id,
                       language, lobby_message_id, created_at, updated_at, rated)
        VALUES (p_guild, p_channel, p_thread, p_kind, p_rules, p_seed, 'lobby', p_host,
                p_language, p_lobby_message, p_at, p_at, p_rated)
        RETURNING * INTO created;
    INSERT INTO seats (game_id, seat, player_key, user_id, name, is_computer, difficulty)
        SELECT created.id, t.seat, t.player_key, t.user_id, t.name, t.is_computer, t.difficulty
        FROM unnest(p_seats, p_keys, p_users, p_names, p_computers, p_difficulties)
            AS t (seat, player_key, user_id, name, is_computer, difficulty);
    RETURN NEXT created;
END $$;

-- Replace a lobby's seats. Returns the game's status as found (NULL: no such game); the seats
-- were replaced only if it was 'lobby'. Seats that break the schema's rules (a person twice)
-- are a constraint violation, and nothing changed. p_shard and p_epoch: the writer's fence
-- (NULL: a process without shards); 'fenced' when its lease is no longer current.
CREATE FUNCTION set_seats(
    p_game BIGINT,
    p_seats INTEGER[],
    p_keys TEXT[],
    p_users BIGINT[],
    p_names TEXT[],
    p_computers INTEGER[],
    p_difficulties TEXT[],
    p_shard INTEGER,
    p_epoch BIGINT
) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
    found_status TEXT;
BEGIN
    IF p_epoch IS NOT NULL THEN  -- fenced as 0010's append_actions: 'fenced', nothing written
        PERFORM 1 FROM shard_leases AS l
            WHERE l.shard_id = p_shard AND l.epoch = p_epoch FOR SHARE;
        IF NOT FOUND THEN
            RETURN 'fenced';
        END IF;
    END IF;
    SELECT g.status INTO found_status FROM games AS g WHERE g.id = p_game FOR UPDATE;
    IF found_status = 'lobby' THEN
        DELETE FROM seats AS s WHERE s.game_id = p_game;
        INSERT INTO seats (game_id, seat, player_key, user_id, name, is_computer, difficulty)
            SELECT p_game, t.seat, t.player_key, t.user_id, t.name, t.is_computer, t.difficulty
            FROM unnest(p_seats, p_keys, p_users, p_names, p_computers, p_difficulties)
                AS t (seat, player_key, user_id, name, is_computer, difficulty);
    END IF;
    RETURN found_status;
END $$;

-- A lobby's Start: the game goes live with the deadline of its first decision, and the seated
-- people's autoplay preference comes back with it. Returns the game's status as found (no
-- row: no such game); the game started only if it was 'lobby'. Fenced as set_seats.
CREATE FUNCTION start_game(
    p_game BIGINT,
    p_at DOUBLE PRECISION,
    p_deadline DOUBLE PRECISION,
    p_people BIGINT[],
    p_shard INTEGER,
    p_epoch BIGINT
) RETURNS TABLE (status TEXT, autoplay BIGINT[]) LANGUAGE plpgsql AS $$
DECLARE
    found_status TEXT;
BEGIN
    IF p_epoch IS NOT NULL THEN  -- fenced as 0010's append_actions: 'fenced', nothing written
        PERFORM 1 FROM shard_leases AS l
            WHERE l.shard_id = p_shard AND l.epoch = p_epoch FOR SHARE;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'fenced'::TEXT, NULL::BIGINT[];
            RETURN;
        END IF;
    END IF;
    SELECT g.status INTO found_status FROM games AS g WHERE g.id = p_game FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF found_status = 'lobby' THEN
        UPDATE games AS g
            SET status = 'live', started_at = p_at, updated_at = p_at, turn_deadline = p_deadline
            WHERE g.id = p_game;
    END IF;
    RETURN QUERY SELECT found_status, ARRAY(
        SELECT p.user_id FROM player_prefs AS p
        WHERE p.autoplay = 1 AND p.user_id = ANY (p_people) ORDER BY p.user_id
    );
END $$;
