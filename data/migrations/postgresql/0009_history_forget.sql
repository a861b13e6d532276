-- 0009: history through indexes, and forgetting a person (see ../sqlite/0009_history_forget.sql).

CREATE INDEX games_guild_preset ON games (guild_id, preset, id);
CREATE INDEX action_log_seated ON action_log (user_id, table_id)
    WHERE action IN ('open', 'join', 'take_back');

CREATE OR REPLACE FUNCTION action_log_no_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id = OLD.id AND NEW.table_id = OLD.table_id AND NEW.seat IS NOT DISTINCT FROM OLD.seat
       AND NEW.action = OLD.action AND NEW.at = OLD.at
       AND (NEW.user_id IS NOT DISTINCT FROM OLD.user_id OR NEW.user_id IS NULL)
       AND (NEW.payload_json = OLD.payload_json OR OLD.action = 'join') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'action_log is append-only' USING ERRCODE = 'integrity_constraint_violation';
END
$$;
