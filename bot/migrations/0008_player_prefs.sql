-- Issue 29. A person's own preferences, the same in every server (keyed by user id alone):
-- ``autoplay`` plays their forced cards (a single legal card) by itself. A person with no
-- row has every preference off. /nines forget-me deletes the row.
CREATE TABLE player_prefs (
    user_id    INTEGER PRIMARY KEY,
    autoplay   INTEGER NOT NULL DEFAULT 0 CHECK (autoplay IN (0, 1)),
    updated_at REAL    NOT NULL
) WITHOUT ROWID;

-- When a game started (its lobby's Start); NULL for a lobby that never started, which is no
-- game to list in /nines history. Games from before this migration: started if the table
-- was posted or a move was stored.
ALTER TABLE games ADD COLUMN started_at REAL;
UPDATE games SET started_at = created_at
    WHERE status IN ('live', 'finished')
       OR table_message_id IS NOT NULL
       OR EXISTS (SELECT 1 FROM actions AS a WHERE a.game_id = games.id);
