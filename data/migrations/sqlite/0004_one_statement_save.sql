-- 0004: a save is one statement. The store saves a table and logs its action with one INSERT into
-- the view table_saves; the trigger below applies it (refusing a table that is not open), so the
-- save is one round trip to the driver and one transaction. last_action_id is the id of the
-- action logged by the table's latest save (NULL when that save logged none): the INSERT's
-- RETURNING reads it back.

ALTER TABLE game_tables ADD COLUMN last_action_id INTEGER;

CREATE VIEW table_saves AS
SELECT id AS table_id, host_id, status, rules_json, message_id, snapshot_json, seats_json,
       meta_json, turn_deadline, broken_reason, updated_at, saves, last_action_id AS action_id,
       NULL AS action, NULL AS seat, NULL AS user_id, NULL AS payload_json
FROM game_tables;

CREATE TRIGGER table_saves_save INSTEAD OF INSERT ON table_saves
BEGIN
    SELECT RAISE(ABORT, 'table is not open')
    WHERE NOT EXISTS (SELECT 1 FROM game_tables
                      WHERE id = NEW.table_id AND status IN ('lobby', 'playing'));
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
