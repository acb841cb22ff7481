-- A process asks for its shard back from the one that took it over (as ../0006_shard_handback.sql).
ALTER TABLE shard_leases ADD COLUMN wanted_by TEXT;
