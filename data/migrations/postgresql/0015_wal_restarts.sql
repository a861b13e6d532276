-- 0015: nothing for PostgreSQL. The SQLite file gets a row its driver writes to start the WAL
-- afresh off the event loop (../sqlite/0015_wal_restarts.sql); PostgreSQL's server keeps its own
-- log. The number is kept so both dialects ship the same migrations.
SELECT 1;
