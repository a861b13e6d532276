-- 0006: how people are told it is their turn (see ../sqlite/0006_notify.sql): each person's
-- own choice in notify_prefs, a server's default in guild_settings.notify (NULL: a DM).

CREATE TABLE notify_prefs (
    user_id    BIGINT PRIMARY KEY,
    how        TEXT NOT NULL CHECK (how IN ('dm', 'mention', 'off')),
    updated_at DOUBLE PRECISION NOT NULL
);

ALTER TABLE guild_settings ADD COLUMN notify TEXT CHECK (notify IN ('dm', 'mention', 'off'));
