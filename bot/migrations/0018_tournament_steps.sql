-- Issue 48: each step of a tournament that shows something in Discord is stored as done, so a
-- restart between steps neither repeats it nor loses it (bot/tournament/runner.py).
-- shown_round: the last round whose standings were posted (0: none yet).
ALTER TABLE tournaments ADD COLUMN shown_round INTEGER NOT NULL DEFAULT 0;
-- called: the table's people were pinged in its thread (once; a repeat carries the same nonce).
ALTER TABLE tournament_tables ADD COLUMN called INTEGER NOT NULL DEFAULT 0;
-- boards: once ended, each seat position's points on each hand (a JSON list, by position, of
-- {hand: points}), what duplicate scoring compares across a round's tables (engine/duplicate.py).
ALTER TABLE tournament_tables ADD COLUMN boards TEXT;
