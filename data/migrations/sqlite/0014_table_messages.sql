-- 0014: the Discord messages a table keeps, in rows of their own (bot/messages.py), so that
-- remembering a message id is one small upsert, never a second save of the whole table row.
-- One row per table and person: user_id 0 is the table's own message in its channel; a
-- person's row holds their DM channel, their DM hand message with the hand it shows (a message
-- id of another hand than the one in play is not edited), and whether their DMs are closed.
-- The ids once written in the table row (game_tables.message_id, the seats' hand_message_id and
-- dm_channel_id, meta's dm_failed_seats) are copied here for the open tables, so a restart
-- after the upgrade edits the same messages. A person's row goes when they are forgotten.

CREATE TABLE table_messages (
    table_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,              -- 0: the table message in the table's channel
    channel_id  INTEGER,
    message_id  INTEGER,
    hand_number INTEGER,                       -- the hand a DM hand message shows
    dm_failed   INTEGER NOT NULL DEFAULT 0,    -- 1: this person's DMs are closed
    PRIMARY KEY (table_id, user_id)
);

INSERT INTO table_messages (table_id, user_id, channel_id, message_id)
SELECT id, 0, channel_id, message_id FROM game_tables
WHERE status IN ('lobby', 'playing') AND message_id IS NOT NULL;

INSERT OR IGNORE INTO table_messages
    (table_id, user_id, channel_id, message_id, hand_number, dm_failed)
SELECT seat.table_id, seat.user_id, seat.channel_id, seat.message_id,
       CASE WHEN seat.message_id IS NOT NULL THEN seat.hand_number END, seat.failed
FROM (
    SELECT g.id AS table_id,
           CAST(json_extract(s.value, '$.user_id') AS INTEGER) AS user_id,
           json_extract(s.value, '$.dm_channel_id') AS channel_id,
           json_extract(s.value, '$.hand_message_id') AS message_id,
           CASE WHEN json_valid(g.snapshot_json)
                THEN json_extract(g.snapshot_json, '$.hand_number') END AS hand_number,
           EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(g.meta_json)
                                                THEN g.meta_json ELSE '{}' END,
                                           '$.dm_failed_seats') f
                   WHERE CAST(f.value AS INTEGER) = CAST(s.key AS INTEGER)) AS failed
    FROM game_tables g, json_each(g.seats_json) s
    WHERE g.status IN ('lobby', 'playing')
      AND json_extract(s.value, '$.user_id') IS NOT NULL
) seat
WHERE seat.message_id IS NOT NULL OR seat.channel_id IS NOT NULL OR seat.failed;
