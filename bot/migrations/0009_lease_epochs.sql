-- Issue 32: a fencing token per shard lease. Each new holder of a shard (a takeover, a
-- handback, a first take) gets the next epoch; a renewal by the same holder keeps it, so a
-- write stamped with an older epoch comes from a holder that has since lost the shard.
ALTER TABLE shard_leases ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
