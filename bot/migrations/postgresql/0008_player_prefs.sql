-- Issue 29: PostgreSQL's spelling of ../0008_player_prefs.sql. A person's own preferences,
-- the same in every server (keyed by user id alone): ``autoplay`` plays their forced cards
-- (a single legal card) by itself. No row: every preference off. /nines forget-me deletes it.
CREATE TABLE player_prefs (
    user_id    BIGINT PRIMARY KEY,
    autoplay   INTEGER NOT NULL DEFAULT 0 CHECK (autoplay IN (0, 1)),
    updated_at DOUBLE PRECISION NOT NULL
);

-- When a game started (its lobby's Start); NULL for a lobby that never started, which is no
-- game to list in /nines history. Games from before this migration: started if the table
-- was posted or a move was stored.
ALTER TABLE games ADD COLUMN started_at DOUBLE PRECISION;
UPDATE games SET started_at = created_at
    WHERE status IN ('live', 'finished')
       OR table_message_id IS NOT NULL
       OR EXISTS (SELECT 1 FROM actions AS a WHERE a.game_id = games.id);
