-- 0015 (SQLite only): one row that the driver updates on its writer's thread right after a
-- background checkpoint copied the whole WAL back into the database. SQLite writes the WAL from
-- its start again at the first write after such a checkpoint, and syncs the WAL's new header
-- then (under NORMAL as under FULL). Without this row that first write was a save, usually run
-- inline on the event loop's thread, so the whole bot waited for that fsync (data/sqlite.py).
CREATE TABLE wal_restarts (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    restarts INTEGER NOT NULL
);

INSERT INTO wal_restarts (id, restarts) VALUES (1, 0);
