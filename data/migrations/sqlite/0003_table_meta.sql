-- 0003: a JSON object per table for the service's own data (its lobby options, which seats'
-- DMs are closed...), saved whole with the table in the same UPDATE as everything else. The
-- store never looks inside. Tables written before 0003 get '{}': the service read what it
-- needed for those from their action log (migration 0013 fills it in now).

ALTER TABLE game_tables ADD COLUMN meta_json TEXT NOT NULL DEFAULT '{}'
    CHECK (json_valid(meta_json) AND json_type(meta_json) = 'object');
