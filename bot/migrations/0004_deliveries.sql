-- What each game has delivered to its channel, so a restart finishes what a crash left owed
-- (the table of the hand in play, each hand's summary, the end message, the turn ping).
-- The messages themselves follow from the stored moves; these columns say how far the
-- channel has been told, each written once the message they count stands in Discord.

-- Hands whose summaries stand in the channel.
ALTER TABLE games ADD COLUMN shown_hands INTEGER NOT NULL DEFAULT 0;
-- The hand the table message (table_message_id) shows.
ALTER TABLE games ADD COLUMN table_hand INTEGER;
-- The standing "your turn" message and the decision (action count) it announced.
ALTER TABLE games ADD COLUMN turn_message_id INTEGER;
ALTER TABLE games ADD COLUMN turn_n INTEGER;
-- 0 while an ended game's end is owed to its channel; games ended before this migration
-- were announced.
ALTER TABLE games ADD COLUMN announced INTEGER NOT NULL DEFAULT 1 CHECK (announced IN (0, 1));

CREATE INDEX games_unannounced ON games (id) WHERE announced = 0;
