-- Issue 46 (item 3). A person's own preference for text cards: ``text_cards`` shows their
-- hand's cards as text (``D♠``, read by a screen reader as the card) instead of the drawn
-- faces. Kept with autoplay and trumps_first, the same in every server; /nines forget-me
-- deletes the row with it.
ALTER TABLE player_prefs ADD COLUMN text_cards INTEGER NOT NULL DEFAULT 0
    CHECK (text_cards IN (0, 1));
