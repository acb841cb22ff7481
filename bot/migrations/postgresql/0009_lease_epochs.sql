-- A fencing token per shard lease, the next for each new holder (as ../0009_lease_epochs.sql).
ALTER TABLE shard_leases ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
