-- 0013: open tables stored before 0003 (meta '{}') get the meta the service keeps in the row,
-- read once from their action log, so resuming reads the row alone: the host's options (the
-- `open` action), the seats whose DMs are closed (`dm_failed` actions name the person), and
-- who each seat had before a computer took it mid-game (a `leave` or `kick` after the first
-- `deal`; the latest per seat). Rows whose meta has options already are left as they are.

UPDATE game_tables SET meta_json = json_set(
    meta_json,
    '$.options', json(COALESCE(
        (SELECT json_extract(a.payload_json, '$.options') FROM action_log a
         WHERE a.table_id = game_tables.id AND a.action = 'open'
         ORDER BY a.id DESC LIMIT 1),
        '{}')),
    '$.dm_failed_seats', json((
        SELECT json_group_array(failed.seat) FROM (
            SELECT s.key AS seat FROM json_each(game_tables.seats_json) s
            WHERE CAST(json_extract(s.value, '$.user_id') AS INTEGER) IN (
                SELECT CAST(json_extract(a.payload_json, '$.user_id') AS INTEGER)
                FROM action_log a WHERE a.table_id = game_tables.id AND a.action = 'dm_failed')
            ORDER BY s.key) failed)),
    '$.replaced_user_ids', json((
        SELECT json_group_object(CAST(latest.seat AS TEXT), latest.who) FROM (
            SELECT gone.seat, gone.who,
                   ROW_NUMBER() OVER (PARTITION BY gone.seat ORDER BY gone.id DESC) AS newest
            FROM (SELECT a.id, a.seat,
                         CAST(CASE a.action WHEN 'kick' THEN json_extract(a.payload_json, '$.target')
                              ELSE a.user_id END AS INTEGER) AS who
                  FROM action_log a
                  WHERE a.table_id = game_tables.id AND a.seat IS NOT NULL
                    AND a.action IN ('leave', 'kick')
                    AND a.id > (SELECT MIN(d.id) FROM action_log d
                                WHERE d.table_id = game_tables.id AND d.action = 'deal')) gone
            WHERE gone.who IS NOT NULL) latest
        WHERE latest.newest = 1)))
WHERE status IN ('lobby', 'playing') AND json_type(meta_json, '$.options') IS NULL;
