-- 0006: how people are told it is their turn. notify_prefs holds each person's own choice
-- (/ohhell notify), for every server; guild_settings.notify a server's default for those who
-- made none (/ohhell settings notify:); NULL there means the bot's default (a DM).

CREATE TABLE notify_prefs (
    user_id    INTEGER PRIMARY KEY,
    how        TEXT NOT NULL CHECK (how IN ('dm', 'mention', 'off')),
    updated_at REAL NOT NULL
);

ALTER TABLE guild_settings ADD COLUMN notify TEXT CHECK (notify IN ('dm', 'mention', 'off'));
