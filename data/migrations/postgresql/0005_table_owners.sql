-- 0005: several processes, each driving its own tables (see ../sqlite/0005_table_owners.sql).
-- game_tables.owner names the process that drives a table; processes holds each running
-- process's lease; the save trigger refuses a save from any process but the table's owner.

ALTER TABLE game_tables ADD COLUMN owner TEXT;

CREATE TABLE processes (
    owner      TEXT PRIMARY KEY,
    shards     TEXT NOT NULL,
    renewed_at DOUBLE PRECISION NOT NULL
);

DROP TRIGGER table_saves_save ON table_saves;
DROP VIEW table_saves;

CREATE VIEW table_saves AS
SELECT id AS table_id, host_id, status, rules_json, message_id, snapshot_json, seats_json,
       meta_json, turn_deadline, broken_reason, updated_at, saves, last_action_id AS action_id,
       NULL::text AS action, NULL::integer AS seat, NULL::bigint AS user_id,
       NULL::text AS payload_json, owner
FROM game_tables;

CREATE OR REPLACE FUNCTION table_saves_save() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.action IS NOT NULL THEN
        NEW.action_id := nextval(pg_get_serial_sequence('action_log', 'id'));
    ELSE
        NEW.action_id := NULL;
    END IF;
    UPDATE game_tables SET
        host_id = NEW.host_id, status = NEW.status, rules_json = NEW.rules_json,
        message_id = NEW.message_id, snapshot_json = NEW.snapshot_json,
        seats_json = NEW.seats_json, meta_json = NEW.meta_json,
        turn_deadline = NEW.turn_deadline, broken_reason = NEW.broken_reason,
        saves = saves + 1, updated_at = NEW.updated_at, last_action_id = NEW.action_id
    WHERE id = NEW.table_id AND status IN ('lobby', 'playing')
      AND (owner IS NULL OR owner = NEW.owner)
    RETURNING saves INTO NEW.saves;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM game_tables WHERE id = NEW.table_id
                   AND status IN ('lobby', 'playing')) THEN
            RAISE EXCEPTION 'table is driven by another process'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RAISE EXCEPTION 'table is not open' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.action IS NOT NULL THEN
        INSERT INTO action_log (id, table_id, seat, user_id, action, payload_json, at)
        VALUES (NEW.action_id, NEW.table_id, NEW.seat, NEW.user_id, NEW.action,
                NEW.payload_json, NEW.updated_at);
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER table_saves_save INSTEAD OF INSERT ON table_saves
    FOR EACH ROW EXECUTE FUNCTION table_saves_save();
