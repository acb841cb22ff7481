-- Indexes for /nines history-style queries (as ../0002_history_indexes.sql): a guild's ended
-- games newest first, and the games one player sat in.
CREATE INDEX games_guild_ended ON games (guild_id, ended_at DESC) WHERE ended_at IS NOT NULL;
CREATE INDEX seats_player ON seats (player_key, game_id);
