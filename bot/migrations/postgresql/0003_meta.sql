-- Small facts about the bot itself (as ../0003_meta.sql), e.g. the digest of the slash
-- commands last synced, so a restart does not re-create commands Discord already has.
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
