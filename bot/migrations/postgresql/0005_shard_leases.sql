-- One owner per gateway shard, and the IDENTIFY buckets' next free moments (as
-- ../0005_shard_leases.sql).
CREATE TABLE shard_leases (
    shard_id   INTEGER PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE identify_slots (
    bucket  INTEGER PRIMARY KEY,
    next_at DOUBLE PRECISION NOT NULL
);
