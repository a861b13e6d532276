-- 0010: a save from a stale copy is refused (see ../sqlite/0010_save_counter.sql). The counter
-- is checked in the UPDATE's own WHERE, so PostgreSQL checks it again on the row it locks: two
-- saves racing from copies with the same counter cannot both land. Otherwise as 0005.

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
      AND (NEW.saves IS NULL OR saves <= NEW.saves)
    RETURNING saves INTO NEW.saves;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM game_tables WHERE id = NEW.table_id
                   AND status IN ('lobby', 'playing')
                   AND owner IS NOT NULL AND owner IS DISTINCT FROM NEW.owner) THEN
            RAISE EXCEPTION 'table is driven by another process'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF EXISTS (SELECT 1 FROM game_tables WHERE id = NEW.table_id
                   AND status IN ('lobby', 'playing')) THEN
            RAISE EXCEPTION 'table was saved since this copy was read'
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
