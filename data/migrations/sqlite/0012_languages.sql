-- 0012: who reads which language (docs/discord.md, "Who reads what"). A server's language
-- setting (NULL: automatic, the server's Discord preferred locale; else a catalogue language,
-- "en" or "nb"), and each person's Discord locale as last seen in an interaction, so the DMs
-- the bot sends on its own (hands, nudges, end-of-game edits) are in their language. A
-- person's row is written only when their locale changes, and goes when they are forgotten.

ALTER TABLE guild_settings ADD COLUMN language TEXT;

CREATE TABLE person_locales (
    user_id    INTEGER PRIMARY KEY,
    locale     TEXT NOT NULL,
    updated_at REAL NOT NULL
);
