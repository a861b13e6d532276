-- 0014: the Discord messages a table keeps, in rows of their own (see
-- ../sqlite/0014_table_messages.sql); the open tables' ids are copied out of their rows.

CREATE TABLE table_messages (
    table_id    BIGINT NOT NULL,
    user_id     BIGINT NOT NULL,
    channel_id  BIGINT,
    message_id  BIGINT,
    hand_number INTEGER,
    dm_failed   BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (table_id, user_id)
);

-- A damaged snapshot must not stop the upgrade: its hand is unknown (the table is set aside
-- when it is resumed anyway).
CREATE FUNCTION pg_temp.snapshot_hand(snapshot TEXT) RETURNS INTEGER LANGUAGE plpgsql AS $$
BEGIN
    RETURN (snapshot::jsonb ->> 'hand_number')::integer;
EXCEPTION WHEN others THEN
    RETURN NULL;
END;
$$;

INSERT INTO table_messages (table_id, user_id, channel_id, message_id)
SELECT id, 0, channel_id, message_id FROM game_tables
WHERE status IN ('lobby', 'playing') AND message_id IS NOT NULL;

INSERT INTO table_messages (table_id, user_id, channel_id, message_id, hand_number, dm_failed)
SELECT seat.table_id, seat.user_id, seat.channel_id, seat.message_id,
       CASE WHEN seat.message_id IS NOT NULL THEN pg_temp.snapshot_hand(seat.snapshot) END,
       seat.failed
FROM (
    SELECT g.id AS table_id, g.snapshot_json AS snapshot,
           (s.seat ->> 'user_id')::bigint AS user_id,
           (s.seat ->> 'dm_channel_id')::bigint AS channel_id,
           (s.seat ->> 'hand_message_id')::bigint AS message_id,
           COALESCE(g.meta_json::jsonb -> 'dm_failed_seats', '[]'::jsonb)
               @> to_jsonb(s.number - 1) AS failed
    FROM game_tables g,
         jsonb_array_elements(g.seats_json::jsonb) WITH ORDINALITY AS s (seat, number)
    WHERE g.status IN ('lobby', 'playing') AND s.seat ->> 'user_id' IS NOT NULL
) seat
WHERE seat.message_id IS NOT NULL OR seat.channel_id IS NOT NULL OR seat.failed
ON CONFLICT (table_id, user_id) DO NOTHING;
