-- PostgreSQL's version 11 adds open_game, set_seats and start_game: a lobby's writes as one
-- function call each (one round trip). SQLite runs a write in the bot's own process: nothing
-- to change.
SELECT 1;
