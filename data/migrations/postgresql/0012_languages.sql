-- 0012: who reads which language (see ../sqlite/0012_languages.sql).

ALTER TABLE guild_settings ADD COLUMN language TEXT;

CREATE TABLE person_locales (
    user_id    BIGINT PRIMARY KEY,
    locale     TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
