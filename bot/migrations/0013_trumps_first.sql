-- Issue 38 (item 9). A person's own way of sorting their hand: ``trumps_first`` puts the
-- trump suit's cards first (off: suit order alone, the default). Kept with autoplay, the same
-- in every server; /nines forget-me deletes the row with it.
ALTER TABLE player_prefs ADD COLUMN trumps_first INTEGER NOT NULL DEFAULT 0
    CHECK (trumps_first IN (0, 1));
