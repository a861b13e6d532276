-- 0009: a server's finished games looked back at, and a person forgotten on request.
-- History reads newest first through an index: all games by games_guild (guild_id, id), one
-- preset's by games_guild_preset, one member's by game_seats_human (guild_id, user_id, game_id).
-- Forgetting finds the tables a person sat at through action_log_seated (their open, join and
-- take-back rows), and may rewrite those rows: the log stays append-only for everything a
-- replay reads (ids, tables, seats, actions, times, and every payload but a join's name); only
-- who acted may be cleared (user_id set to NULL) and a join's payload (the name) rewritten.

CREATE INDEX games_guild_preset ON games (guild_id, preset, id);
CREATE INDEX action_log_seated ON action_log (user_id, table_id)
    WHERE action IN ('open', 'join', 'take_back');

DROP TRIGGER action_log_no_update;
CREATE TRIGGER action_log_no_update BEFORE UPDATE ON action_log
WHEN NOT (NEW.id = OLD.id AND NEW.table_id = OLD.table_id AND NEW.seat IS OLD.seat
          AND NEW.action = OLD.action AND NEW.at = OLD.at
          AND (NEW.user_id IS OLD.user_id OR NEW.user_id IS NULL)
          AND (NEW.payload_json = OLD.payload_json OR OLD.action = 'join'))
BEGIN SELECT RAISE(ABORT, 'action_log is append-only'); END;
