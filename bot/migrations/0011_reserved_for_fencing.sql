-- PLACEHOLDER on branch "pgtrip" only: the "fencing" branch owns migration 0011. Migrations
-- must be numbered 1..n, so this stands in for it until the merge; the lead deletes this file
-- when merging that branch's 0011.
SELECT 1;
