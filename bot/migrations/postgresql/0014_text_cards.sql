-- Issue 46: PostgreSQL's spelling of ../0014_text_cards.sql. A person's own preference for
-- text cards: ``text_cards`` shows their hand's cards as text instead of the drawn faces.
ALTER TABLE player_prefs ADD COLUMN text_cards INTEGER NOT NULL DEFAULT 0
    CHECK (text_cards IN (0, 1));
