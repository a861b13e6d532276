-- 0011: the turn nudges the bot has on Discord (see ../sqlite/0011_posted_nudges.sql).

CREATE TABLE posted_nudges (
    table_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
