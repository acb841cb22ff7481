-- What each game has delivered to its channel (as ../0004_deliveries.sql), so a restart
-- finishes what a crash left owed: hands whose summaries stand, the hand the table shows, the
-- standing "your turn" message and the decision it announced, and whether an ended game's
-- end was announced (games ended before this migration were).
ALTER TABLE games ADD COLUMN shown_hands INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN table_hand INTEGER;
ALTER TABLE games ADD COLUMN turn_message_id BIGINT;
ALTER TABLE games ADD COLUMN turn_n INTEGER;
ALTER TABLE games ADD COLUMN announced INTEGER NOT NULL DEFAULT 1 CHECK (announced IN (0, 1));

CREATE INDEX games_unannounced ON games (id) WHERE announced = 0;
