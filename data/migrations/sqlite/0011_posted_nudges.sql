-- 0011: the turn nudges the bot has on Discord (cogs/nudges.py), at most one per person per
-- table, so that after a restart it still knows them and takes each down when it is due (the
-- person acted, or the table ended) instead of leaving it beside a new one. A row goes when
-- its message is deleted.

CREATE TABLE posted_nudges (
    table_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
