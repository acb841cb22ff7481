-- PLACEHOLDER on branch "pgtrip" only: the "delivery" branch owns migration 0010. Migrations
-- must be numbered 1..n, so this stands in for it until the merge; the lead deletes this file
-- when merging that branch's 0010.
SELECT 1;
