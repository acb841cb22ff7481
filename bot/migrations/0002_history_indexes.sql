-- Indexes for /nines history-style queries: a guild's ended games newest first, and the games
-- one player sat in. Added after 0001 so that upgrading a v1 database is exercised for real.
CREATE INDEX games_guild_ended ON games (guild_id, ended_at DESC) WHERE ended_at IS NOT NULL;
CREATE INDEX seats_player ON seats (player_key, game_id);
