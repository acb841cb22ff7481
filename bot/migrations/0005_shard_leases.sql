-- Several bot processes on one database (SHARD_COUNT): each gateway shard has one owner at a
-- time. A process takes a shard's lease with a conditional write (free, expired, or its own)
-- and renews it while alive; one whose lease lapsed stops serving that shard.
CREATE TABLE shard_leases (
    shard_id   INTEGER PRIMARY KEY,
    owner      TEXT NOT NULL,   -- a random id per process
    expires_at REAL NOT NULL    -- Unix time
);

-- Discord allows one IDENTIFY per bucket (shard_id % max_concurrency) every 5 seconds, across
-- every process of the bot: the next free moment of each bucket, reserved atomically.
CREATE TABLE identify_slots (
    bucket  INTEGER PRIMARY KEY,
    next_at REAL NOT NULL
);
