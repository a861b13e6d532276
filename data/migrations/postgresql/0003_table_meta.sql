-- 0003: a JSON object per table for the service's own data (see ../sqlite/0003_table_meta.sql).

ALTER TABLE game_tables ADD COLUMN meta_json TEXT NOT NULL DEFAULT '{}'
    CHECK (jsonb_typeof(meta_json::jsonb) = 'object');
