-- Issue 44: what Discord said of a web table's access token (GET /oauth2/@me), kept across a
-- restart so the open tables come back from it rather than from Discord
-- (bot/storage/activity_tokens.py). Keyed by the token's SHA-256, never the token itself.
-- trusted_until: until when the gate trusts it without asking Discord (the expiry, or two
-- rounds of re-checks, whichever comes first); expires_at: its own expiry. Epoch seconds.
CREATE TABLE activity_tokens (
    token_hash     TEXT    NOT NULL PRIMARY KEY,
    application_id INTEGER NOT NULL,
    scopes         TEXT    NOT NULL,
    user_id        INTEGER NOT NULL,
    name           TEXT    NOT NULL,
    avatar         TEXT,
    expires_at     REAL    NOT NULL,
    trusted_until  REAL    NOT NULL
) WITHOUT ROWID;
CREATE INDEX activity_tokens_trusted_until ON activity_tokens (trusted_until);
