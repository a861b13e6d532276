-- 0013: open tables stored before 0003 get their meta from the action log (see
-- ../sqlite/0013_meta_from_log.sql).

UPDATE game_tables t SET meta_json = (t.meta_json::jsonb || jsonb_build_object(
    'options', COALESCE(
        (SELECT a.payload_json::jsonb -> 'options' FROM action_log a
         WHERE a.table_id = t.id AND a.action = 'open'
         ORDER BY a.id DESC LIMIT 1),
        '{}'::jsonb),
    'dm_failed_seats', COALESCE(
        (SELECT jsonb_agg(s.number - 1 ORDER BY s.number)
         FROM jsonb_array_elements(t.seats_json::jsonb) WITH ORDINALITY AS s (seat, number)
         WHERE (s.seat ->> 'user_id')::bigint IN (
             SELECT (a.payload_json::jsonb ->> 'user_id')::bigint
             FROM action_log a WHERE a.table_id = t.id AND a.action = 'dm_failed')),
        '[]'::jsonb),
    'replaced_user_ids', COALESCE(
        (SELECT jsonb_object_agg(latest.seat::text, latest.who) FROM (
             SELECT DISTINCT ON (gone.seat) gone.seat, gone.who
             FROM (SELECT a.id, a.seat,
                          CASE a.action WHEN 'kick' THEN (a.payload_json::jsonb ->> 'target')::bigint
                               ELSE a.user_id END AS who
                   FROM action_log a
                   WHERE a.table_id = t.id AND a.seat IS NOT NULL
                     AND a.action IN ('leave', 'kick')
                     AND a.id > (SELECT MIN(d.id) FROM action_log d
                                 WHERE d.table_id = t.id AND d.action = 'deal')) gone
             WHERE gone.who IS NOT NULL
             ORDER BY gone.seat, gone.id DESC) latest),
        '{}'::jsonb)))::text
WHERE t.status IN ('lobby', 'playing') AND t.meta_json::jsonb -> 'options' IS NULL;
