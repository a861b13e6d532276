-- 0007: a game whose table allowed hints (/ohhell hint, the hard computer's suggestion) is kept
-- but not rated; the row says so.

ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
