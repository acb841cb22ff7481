-- A process that comes back finds its shard (SHARD_IDS) served by the one that took it over:
-- it asks for it here, and the holder hands it back with the lease (balance after a restart).
ALTER TABLE shard_leases ADD COLUMN wanted_by TEXT;
