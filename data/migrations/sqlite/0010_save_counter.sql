-- 0010: a save from a stale copy is refused. A save carries the save counter of the copy it was
-- made from (table_saves.saves); when the stored table was saved since (its counter is ahead),
-- the save is refused, so a process that stalled past its lease and got the table handed back
-- cannot write its old game over the moves another process made meanwhile. A save without a
-- counter (NULL) is not checked. Otherwise as 0005.

DROP TRIGGER table_saves_save;

CREATE TRIGGER table_saves_save INSTEAD OF INSERT ON table_saves
BEGIN
    SELECT RAISE(ABORT, 'table is not open')
    WHERE NOT EXISTS (SELECT 1 FROM game_tables
                      WHERE id = NEW.table_id AND status IN ('lobby', 'playing'));
    SELECT RAISE(ABORT, 'table is driven by another process')
    WHERE EXISTS (SELECT 1 FROM game_tables
                  WHERE id = NEW.table_id AND owner IS NOT NULL AND owner IS NOT NEW.owner);
    SELECT RAISE(ABORT, 'table was saved since this copy was read')
    WHERE EXISTS (SELECT 1 FROM game_tables WHERE id = NEW.table_id AND saves > NEW.saves);
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
