-- 0012: reserved for a migration written on another branch at the same time (numbers are given
-- out per branch). This file only keeps the numbers without gaps until that branch is merged,
-- which replaces it: delete this file (both dialects) in that merge.

SELECT 1;
