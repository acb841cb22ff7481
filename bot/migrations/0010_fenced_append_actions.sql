-- Issue 32: fenced writes. PostgreSQL recreates its append_actions function with the
-- writer's lease epoch (postgresql/0010_fenced_append_actions.sql); SQLite has no stored
-- functions: storage/fencing.py checks the epoch inside each write's transaction. Nothing
-- to change here; the number keeps both schemas at the same version.
SELECT 1;
