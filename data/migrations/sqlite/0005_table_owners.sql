-- 0005: several processes, each driving its own tables (PostgreSQL; on SQLite the columns are
-- there and stay empty, one process drives every table).
-- game_tables.owner names the process that drives a table (NULL: whoever resumes it). A process
-- renews its row in processes while it runs; another process may take a table over once its
-- owner's row is older than the lease (Store.claim_tables). A save names the process making it,
-- and the trigger refuses a save from any process but the owner, so a process that lost its
-- tables (stalled past its lease) cannot write over the one that took them.

ALTER TABLE game_tables ADD COLUMN owner TEXT;

CREATE TABLE processes (
    owner      TEXT PRIMARY KEY,
    shards     TEXT NOT NULL,                    -- the shard ids it drives, e.g. "0,1"
    renewed_at REAL NOT NULL
);

DROP TRIGGER table_saves_save;
DROP VIEW table_saves;

CREATE VIEW table_saves AS
SELECT id AS table_id, host_id, status, rules_json, message_id, snapshot_json, seats_json,
       meta_json, turn_deadline, broken_reason, updated_at, saves, last_action_id AS action_id,
       NULL AS action, NULL AS seat, NULL AS user_id, NULL AS payload_json, owner
FROM game_tables;

CREATE TRIGGER table_saves_save INSTEAD OF INSERT ON table_saves
BEGIN
    SELECT RAISE(ABORT, 'table is not open')
    WHERE NOT EXISTS (SELECT 1 FROM game_tables
                      WHERE id = NEW.table_id AND status IN ('lobby', 'playing'));
    SELECT RAISE(ABORT, 'table is driven by another process')
    WHERE EXISTS (SELECT 1 FROM game_tables
                  WHERE id = NEW.table_id AND owner IS NOT NULL AND owner IS NOT NEW.owner);
    UPDATE game_tables SET
        host_id = NEW.host_id, status = NEW.status, rules_json = NEW.rules_json,
        message_id = NEW.message_id, snapshot_json = NEW.snapshot_json,
        seats_json = NEW.seats_json, meta_json = NEW.meta_json,
        turn_deadline = NEW.turn_deadline, broken_reason = NEW.broken_reason,
        saves = saves + 1, updated_at = NEW.updated_at,
        last_action_id = CASE WHEN NEW.action IS NULL THEN NULL
                              ELSE (SELECT COALESCE(MAX(id), 0) + 1 FROM action_log) END
    WHERE id = NEW.table_id;
    INSERT INTO action_log (id, table_id, seat, user_id, action, payload_json, at)
    SELECT last_action_id, NEW.table_id, NEW.seat, NEW.user_id, NEW.action, NEW.payload_json,
           NEW.updated_at
    FROM game_tables WHERE id = NEW.table_id AND NEW.action IS NOT NULL;
END;
