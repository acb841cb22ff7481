-- Issue 38: PostgreSQL's spelling of ../0012_trumps_first.sql. A person's own way of sorting
-- their hand: ``trumps_first`` puts the trump suit's cards first (off: suit order alone).
ALTER TABLE player_prefs ADD COLUMN trumps_first INTEGER NOT NULL DEFAULT 0
    CHECK (trumps_first IN (0, 1));
